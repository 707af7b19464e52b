// The Helm chart (deploy/helm/switchboard), rendered with helm and validated OFFLINE against the Kubernetes API's
// JSON schemas (kubernetes-validate, strict: unknown fields are errors), for a self-hosted Temporal with mTLS and for
// Temporal Cloud with an API key; the validator is also shown broken copies it must reject. No cluster is needed.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { loadConfig } from '../../src/core/config';
import { TASK_QUEUE_KINDS } from '../../src/temporal/task-queues';
import { deployTools, type DeployTools } from '../helpers/deploy-tools';
import { repoRoot } from '../helpers/env';

jest.setTimeout(30 * 60_000); // the first run on a machine builds helm

const chart = path.join(repoRoot, 'deploy', 'helm', 'switchboard');
const KUBE_VERSIONS = ['1.30.0', '1.37.0'];
type Doc = Record<string, any>;

const base = [
  'image.repository=registry.example.com/switchboard',
  'image.tag=1.2.3',
  'ingress.host=api.example.com',
  'ingress.tls.secretName=switchboard-tls',
  'ingress.className=nginx',
];
const selfHostedMtls = [
  ...base,
  'temporal.address=temporal-frontend.temporal.svc:7233',
  'temporal.tls.existingSecret=temporal-client-tls',
  'temporal.tls.serverName=temporal',
  'secrets.existingSecret=switchboard',
];
const cloudApiKey = [
  ...base,
  'temporal.address=my-ns.a1b2c.tmprl.cloud:7233',
  'temporal.namespace=my-ns.a1b2c',
  'temporal.uiUrl=https://cloud.temporal.io',
  'temporal.apiKey.existingSecret=temporal-cloud',
  'temporal.searchAttributesJob.enabled=false',
  'secrets.existingSecret=switchboard',
];
const chartSecrets = [
  ...base,
  'temporal.address=temporal-frontend:7233',
  'temporal.uiUrl=https://temporal.example.com',
  'secrets.values.DATABASE_URL=postgres://switchboard:pw@db:5432/switchboard',
  'secrets.values.ENCRYPTION_KEY=ZHVtbXktZW5jcnlwdGlvbi1rZXktMzItYnl0ZXMhISE=',
  'secrets.values.JWT_SECRET=dummy-jwt-secret-of-at-least-32-characters',
  'secrets.values.TWILIO_ACCOUNT_SID=AC0123456789abcdef0123456789abcdef',
  'secrets.values.TWILIO_AUTH_TOKEN=dummy-twilio-auth-token',
];

let tools: DeployTools;
let dir: string;

beforeAll(() => {
  tools = deployTools();
  dir = mkdtempSync(path.join(os.tmpdir(), 'helm-test-'));
});
afterAll(() => dir && rmSync(dir, { recursive: true, force: true }));

const helm = (args: string[]) =>
  spawnSync(tools.helm, args, {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: dir, HELM_CACHE_HOME: dir, HELM_CONFIG_HOME: dir, HELM_DATA_HOME: dir },
  });

function render(sets: string[], kubeVersion = KUBE_VERSIONS[0]!): string {
  const r = helm(['template', 'sb', chart, '--kube-version', kubeVersion, ...sets.flatMap((s) => ['--set', s])]);
  if (r.status !== 0) throw new Error(`helm template failed: ${r.stderr}`);
  return r.stdout;
}

const docs = (text: string): Doc[] =>
  parseAllDocuments(text)
    .map((d) => d.toJS() as Doc)
    .filter(Boolean);

/** kubernetes-validate --strict on the manifests: [] when every resource validates, else its error lines. */
function validate(text: string, kubeVersion: string): string[] {
  const file = path.join(dir, `manifest-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(file, text);
  const r = spawnSync(tools.kubernetes_validate, ['--strict', '--quiet', '-k', kubeVersion, file], { encoding: 'utf8' });
  const errors = `${r.stdout}${r.stderr}`.split('\n').filter((l) => l.trim());
  return r.status === 0 ? [] : errors.length ? errors : [`exit ${r.status}`];
}

const byKind = (all: Doc[], kind: string) => all.filter((d) => d.kind === kind);
const named = (all: Doc[], kind: string, name: string) => {
  const found = all.find((d) => d.kind === kind && d.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name}`);
  return found;
};
const container = (d: Doc) => d.spec.template.spec.containers[0];
const envOf = (d: Doc): Record<string, any> => Object.fromEntries((container(d).env ?? []).map((e: Doc) => [e.name, e.value ?? e.valueFrom]));

describe('the Helm chart renders valid Kubernetes manifests', () => {
  it('passes helm lint', () => {
    const r = helm(['lint', chart, ...selfHostedMtls.flatMap((s) => ['--set', s])]);
    expect(r.stdout + r.stderr).toMatch(/1 chart\(s\) linted, 0 chart\(s\) failed/);
    expect(r.status).toBe(0);
  });

  it.each(
    KUBE_VERSIONS.flatMap(
      (k) =>
        [
          ['self-hosted Temporal with mTLS', k, selfHostedMtls],
          ['Temporal Cloud with an API key', k, cloudApiKey],
          ['secrets made by the chart', k, chartSecrets],
        ] as const,
    ),
  )('%s validates against the Kubernetes %s API schemas', (_label, kubeVersion, sets) => {
    const text = render([...sets], kubeVersion);
    expect(docs(text).length).toBeGreaterThanOrEqual(12);
    expect(validate(text, kubeVersion)).toEqual([]);
  });

  it('the validator rejects an invalid manifest: a wrong type, an unknown field, a missing required field', () => {
    const text = render(selfHostedMtls);
    const broken = [
      text.replace('containerPort: 9465', 'containerPort: "nine"'),
      text.replace('terminationGracePeriodSeconds: 30', 'terminationGracePeriodSecs: 30'),
      text.replace(/\n {6}port: 80\n/, '\n'),
    ];
    for (const copy of broken) {
      expect(copy).not.toBe(text);
      expect(validate(copy, KUBE_VERSIONS[0]!)).not.toEqual([]);
    }
  });

  it('refuses to render without the settings it cannot guess, naming them', () => {
    const r = helm([
      'template',
      'sb',
      chart,
      '--kube-version',
      '1.30.0',
      '--set',
      'image.repository=r/sb,ingress.host=a.example.com,ingress.tls.secretName=t,secrets.existingSecret=s',
    ]);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('temporal.address is required');
    const noSecret = helm(['template', 'sb', chart, '--kube-version', '1.30.0', ...base.flatMap((s) => ['--set', s]), '--set', 'temporal.address=t:7233']);
    expect(noSecret.status).not.toBe(0);
    expect(noSecret.stderr).toContain('secrets.values.DATABASE_URL is required');
  });
});

describe('what the chart deploys', () => {
  const all = () => docs(render(selfHostedMtls));

  it('one worker Deployment per task queue, each with an HPA, ready on /readyz and live on /healthz', () => {
    const rendered = all();
    for (const queue of TASK_QUEUE_KINDS) {
      const deployment = named(rendered, 'Deployment', `sb-switchboard-worker-${queue}`);
      expect(envOf(deployment)).toMatchObject({ WORKER_TASK_QUEUES: queue, HOST: '0.0.0.0' });
      expect(container(deployment).command).toEqual(['node', 'dist/worker/main.js']);
      expect(container(deployment).readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'health' });
      expect(container(deployment).livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'health' });
      expect(container(deployment).ports).toEqual(expect.arrayContaining([{ name: 'health', containerPort: 9465 }]));
      const hpa = named(rendered, 'HorizontalPodAutoscaler', `sb-switchboard-worker-${queue}`);
      expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: deployment.metadata.name });
    }
  });

  it('the api behind a Service and an Ingress terminating TLS for its host, every path to the api', () => {
    const rendered = all();
    const api = named(rendered, 'Deployment', 'sb-switchboard-api');
    expect(container(api).readinessProbe.httpGet.path).toBe('/readyz');
    expect(envOf(api)).toMatchObject({ TRUST_PROXY: 'true', PUBLIC_BASE_URL: 'https://api.example.com', METRICS_PORT: '9464' });
    const ingress = byKind(rendered, 'Ingress')[0]!;
    expect(ingress.spec.tls).toEqual([{ hosts: ['api.example.com'], secretName: 'switchboard-tls' }]);
    expect(ingress.spec.rules[0].http.paths).toEqual([
      { path: '/', pathType: 'Prefix', backend: { service: { name: 'sb-switchboard-api', port: { name: 'http' } } } },
    ]);
    expect(ingress.metadata.annotations['nginx.ingress.kubernetes.io/proxy-read-timeout']).toBe('3600');
    expect(named(rendered, 'Service', 'sb-switchboard-api').spec.ports[0]).toMatchObject({ targetPort: 'http' });
  });

  it('migrations and the search-attribute setup run as Helm hooks; then the api and workers register none', () => {
    const rendered = all();
    const migrations = named(rendered, 'Job', 'sb-switchboard-migrations');
    const setup = named(rendered, 'Job', 'sb-switchboard-search-attributes');
    for (const job of [migrations, setup]) expect(job.metadata.annotations['helm.sh/hook']).toBe('pre-install,pre-upgrade');
    expect(container(migrations).command.join(' ')).toContain("main(['migrate'])");
    expect(container(setup).command).toEqual(['node', 'dist/src/temporal/setup-search-attributes.js']);
    expect(existsSync(path.join(repoRoot, 'src', 'temporal', 'setup-search-attributes.ts'))).toBe(true);
    for (const d of byKind(rendered, 'Deployment')) expect([d.metadata.name, envOf(d).TEMPORAL_REGISTER_SEARCH_ATTRIBUTES]).toEqual([d.metadata.name, 'false']);
    // The settings the hooks read exist before them.
    const config = named(rendered, 'ConfigMap', 'sb-switchboard-config');
    expect(Number(config.metadata.annotations['helm.sh/hook-weight'])).toBeLessThan(Number(migrations.metadata.annotations['helm.sh/hook-weight']));
  });

  it('mTLS: the client certificate Secret mounted and named by TEMPORAL_TLS_*; Cloud: TEMPORAL_API_KEY from its Secret', () => {
    const mtls = named(all(), 'Deployment', 'sb-switchboard-worker-calls');
    expect(envOf(mtls)).not.toHaveProperty('TEMPORAL_UI_URL');
    expect(envOf(mtls)).toMatchObject({
      TEMPORAL_ADDRESS: 'temporal-frontend.temporal.svc:7233',
      TEMPORAL_TLS: 'true',
      TEMPORAL_TLS_CLIENT_CERT_PATH: '/etc/temporal-tls/tls.crt',
      TEMPORAL_TLS_CLIENT_KEY_PATH: '/etc/temporal-tls/tls.key',
      TEMPORAL_TLS_SERVER_CA_CERT_PATH: '/etc/temporal-tls/ca.crt',
      TEMPORAL_TLS_SERVER_NAME: 'temporal',
    });
    expect(mtls.spec.template.spec.volumes).toEqual(expect.arrayContaining([{ name: 'temporal-tls', secret: { secretName: 'temporal-client-tls' } }]));
    const cloud = docs(render(cloudApiKey));
    const api = named(cloud, 'Deployment', 'sb-switchboard-api');
    expect(envOf(api)).toMatchObject({
      TEMPORAL_NAMESPACE: 'my-ns.a1b2c',
      TEMPORAL_UI_URL: 'https://cloud.temporal.io',
      TEMPORAL_TLS: 'true',
      TEMPORAL_API_KEY: { secretKeyRef: { name: 'temporal-cloud', key: 'api-key' } },
      TEMPORAL_REGISTER_SEARCH_ATTRIBUTES: 'true',
    });
    expect(byKind(cloud, 'Job').map((j) => j.metadata.name)).toEqual(['sb-switchboard-migrations']);
  });

  it('every setting a pod gets is one the app accepts (the ConfigMap, the chart’s Secret and the env, through loadConfig)', () => {
    const rendered = docs(render(chartSecrets));
    const config = named(rendered, 'ConfigMap', 'sb-switchboard-config').data as Record<string, string>;
    const secret = byKind(rendered, 'Secret')[0]!.stringData as Record<string, string>;
    for (const d of byKind(rendered, 'Deployment')) {
      const plain = Object.fromEntries(Object.entries(envOf(d)).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
      const env = { ...config, ...secret, ...plain, SWITCHBOARD_DATA_DIR: dir };
      expect(() => loadConfig(env)).not.toThrow();
      const accepted = loadConfig(env) as Record<string, unknown>;
      for (const key of Object.keys(plain)) expect([d.metadata.name, key, key in accepted]).toEqual([d.metadata.name, key, true]);
    }
  });
});
