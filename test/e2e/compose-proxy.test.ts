// docker-compose.yml's reverse proxy, run for real: Caddy with deploy/proxy/Caddyfile and the certificate that
// deploy/certs/generate.sh makes, in front of a real api. HTTPS and wss end at the proxy; /v1, /api, the web chat's
// WebSocket upgrade and the health checks reach the api; /metrics does not leave the internal network.
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Agent, fetch } from 'undici';
import WebSocket from 'ws';
import { importFlow } from '../../src/chat/db/flows';
import { deployTools, generateCerts } from '../helpers/deploy-tools';
import { repoRoot } from '../helpers/env';
import { freePort } from '../helpers/processes';
import { startTestApp, type TestApp } from '../helpers/stack';

jest.setTimeout(30 * 60_000); // the first run on a machine builds Caddy

let app: TestApp;
let caddy: ChildProcess;
let dir: string;
let origin: string;
let ca: string;
let dispatcher: Agent;
let caddyLog = '';

beforeAll(async () => {
  const tools = deployTools();
  dir = mkdtempSync(path.join(os.tmpdir(), 'proxy-test-'));
  copyFileSync(path.join(repoRoot, 'deploy', 'certs', 'generate.sh'), path.join(dir, 'generate.sh'));
  generateCerts(dir, 'localhost');
  ca = readFileSync(path.join(dir, 'proxy', 'ca.pem'), 'utf8');
  dispatcher = new Agent({ connect: { ca } });
  app = await startTestApp({ workers: true });
  const port = await freePort();
  origin = `https://localhost:${port}`;
  caddy = spawn(tools.caddy, ['run', '--adapter', 'caddyfile', '--config', path.join(repoRoot, 'deploy', 'proxy', 'Caddyfile')], {
    env: {
      HOME: dir,
      XDG_DATA_HOME: dir,
      XDG_CONFIG_HOME: dir,
      PUBLIC_HOST: 'localhost',
      PROXY_HTTPS_PORT: String(port),
      PROXY_CERT_DIR: path.join(dir, 'proxy'),
      API_HOST: '127.0.0.1',
      API_PORT: new URL(app.url).port,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  caddy.stdout!.on('data', (d: Buffer) => (caddyLog += d.toString()));
  caddy.stderr!.on('data', (d: Buffer) => (caddyLog += d.toString()));
  const exited = new Promise<never>((_, reject) => caddy.once('exit', (code) => reject(new Error(`caddy exited (${code}):\n${caddyLog}`))));
  // Until the proxy answers (or caddy exits, naming what it refused in its configuration).
  const up = (async () => {
    for (;;) {
      try {
        return await fetch(`${origin}/healthz`, { dispatcher });
      } catch {
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  })();
  await Promise.race([up, exited]);
});

afterAll(async () => {
  if (caddy && caddy.exitCode === null) {
    caddy.removeAllListeners('exit');
    const gone = new Promise((r) => caddy.once('exit', r));
    caddy.kill('SIGTERM');
    await gone;
  }
  await dispatcher?.close();
  await app?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the compose reverse proxy (Caddy, deploy/proxy/Caddyfile)', () => {
  it('terminates TLS with the generated certificate and routes the health checks', async () => {
    for (const p of ['/healthz', '/readyz']) {
      const res = await fetch(`${origin}${p}`, { dispatcher });
      expect([p, res.status]).toEqual([p, 200]);
    }
  });

  it('routes /v1 and /api to the api, with the api’s own answers', async () => {
    const ws = await app.newWorkspace();
    const me = await fetch(`${origin}/v1/me`, { dispatcher, headers: { authorization: `Bearer ${ws.apiKey}` } });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ status: 'success', workspace_id: ws.workspaceId });
    const login = await fetch(`${origin}/api/auth/login`, { dispatcher, method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(login.status).toBe(400);
    expect(await login.json()).toMatchObject({ status: 'failed' });
  });

  it('passes the web chat’s WebSocket upgrade through as wss', async () => {
    const ws = await app.newWorkspace();
    const graph = {
      nodes: [
        { id: 'start', type: 'start', next: 'hello' },
        { id: 'hello', type: 'message', text: 'Welcome.', next: 'end' },
        { id: 'end', type: 'end', text: 'Bye' },
      ],
    };
    const flow = await importFlow(app.db, ws.workspaceId, { name: 'Proxy', publicChat: true, ownerName: 'Ava', graph });
    const socket = new WebSocket(`${origin.replace(/^https/, 'wss')}/webchat/flow/${flow.id}/session/null/r/false`, { ca });
    const first = await new Promise<Record<string, unknown>>((resolve, reject) => {
      socket.once('message', (data) => resolve(JSON.parse(data.toString())));
      socket.once('error', reject);
      socket.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    });
    socket.close();
    expect(first).toMatchObject({ session_id: expect.any(String) });
  });

  it('keeps /metrics off the public side', async () => {
    const res = await fetch(`${origin}/metrics`, { dispatcher });
    expect(res.status).toBe(404);
    expect((await fetch(`${app.url}/metrics`)).status).toBe(200);
  });
});
