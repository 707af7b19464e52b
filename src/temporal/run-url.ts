/** The settings a run's address in the Temporal UI is made of (src/core/config.ts). */
export interface RunUrlSettings {
  TEMPORAL_UI_URL?: string | undefined;
  TEMPORAL_UI_PORT: number;
  TEMPORAL_NAMESPACE: string;
}

/** Where the Temporal UI shows a run: `{TEMPORAL_UI_URL}/namespaces/{namespace}/workflows/{workflow id}`, both URL-encoded. */
export function workflowUrl(settings: RunUrlSettings, workflowId: string): string {
  const ui = (settings.TEMPORAL_UI_URL ?? `http://127.0.0.1:${settings.TEMPORAL_UI_PORT}`).replace(/\/+$/, '');
  return `${ui}/namespaces/${encodeURIComponent(settings.TEMPORAL_NAMESPACE)}/workflows/${encodeURIComponent(workflowId)}`;
}
