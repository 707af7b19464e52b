{{- define "switchboard.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}{{ .Release.Name | trunc 50 | trimSuffix "-" }}{{- else -}}{{ printf "%s-%s" .Release.Name .Chart.Name | trunc 50 | trimSuffix "-" }}{{- end -}}
{{- end -}}

{{- define "switchboard.labels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{- define "switchboard.selector" -}}
app.kubernetes.io/name: {{ .root.Chart.Name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "switchboard.image" -}}
{{ required "image.repository is required (the image the repository's Dockerfile builds)" .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end -}}

{{- define "switchboard.secretName" -}}
{{ .Values.secrets.existingSecret | default (printf "%s-secrets" (include "switchboard.fullname" .)) }}
{{- end -}}

{{/* Settings every Switchboard container reads: the ConfigMap, the Secret, Temporal's connection. */}}
{{- define "switchboard.envFrom" -}}
- configMapRef:
    name: {{ include "switchboard.fullname" . }}-config
- secretRef:
    name: {{ include "switchboard.secretName" . }}
{{- end -}}

{{- define "switchboard.temporalEnv" -}}
- name: TEMPORAL_ADDRESS
  value: {{ required "temporal.address is required (host:port of the Temporal frontend)" .Values.temporal.address | quote }}
- name: TEMPORAL_NAMESPACE
  value: {{ .Values.temporal.namespace | quote }}
{{- with .Values.temporal.uiUrl }}
- name: TEMPORAL_UI_URL
  value: {{ . | quote }}
{{- end }}
{{- if or .Values.temporal.tls.enabled .Values.temporal.tls.existingSecret .Values.temporal.apiKey.existingSecret }}
- name: TEMPORAL_TLS
  value: "true"
{{- end }}
{{- with .Values.temporal.tls.serverName }}
- name: TEMPORAL_TLS_SERVER_NAME
  value: {{ . | quote }}
{{- end }}
{{- if and .Values.temporal.tls.existingSecret .Values.temporal.tls.privateCA }}
- name: TEMPORAL_TLS_SERVER_CA_CERT_PATH
  value: /etc/temporal-tls/ca.crt
{{- end }}
{{- if .Values.temporal.tls.existingSecret }}
- name: TEMPORAL_TLS_CLIENT_CERT_PATH
  value: /etc/temporal-tls/tls.crt
- name: TEMPORAL_TLS_CLIENT_KEY_PATH
  value: /etc/temporal-tls/tls.key
{{- end }}
{{- if .Values.temporal.apiKey.existingSecret }}
- name: TEMPORAL_API_KEY
  valueFrom:
    secretKeyRef:
      name: {{ .Values.temporal.apiKey.existingSecret }}
      key: {{ .Values.temporal.apiKey.key }}
{{- end }}
- name: TEMPORAL_REGISTER_SEARCH_ATTRIBUTES
  value: {{ (not .Values.temporal.searchAttributesJob.enabled) | quote }}
- name: SWITCHBOARD_DATA_DIR
  value: /tmp/switchboard
{{- end -}}

{{- define "switchboard.volumeMounts" -}}
- name: tmp
  mountPath: /tmp
{{- if .Values.temporal.tls.existingSecret }}
- name: temporal-tls
  mountPath: /etc/temporal-tls
  readOnly: true
{{- end }}
{{- end -}}

{{- define "switchboard.volumes" -}}
- name: tmp
  emptyDir: {}
{{- if .Values.temporal.tls.existingSecret }}
- name: temporal-tls
  secret:
    secretName: {{ .Values.temporal.tls.existingSecret }}
{{- end }}
{{- end -}}

{{- define "switchboard.podSpecCommon" -}}
{{- with .Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
securityContext:
  {{- toYaml .Values.podSecurityContext | nindent 2 }}
volumes:
  {{- include "switchboard.volumes" . | nindent 2 }}
{{- end -}}
