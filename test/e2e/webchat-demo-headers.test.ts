// The chat demo page may not be framed and runs nothing but the widget; the widget script itself stays embeddable.
import { importFlow } from '../../src/chat/db/flows';
import { startTestApp, type TestApp } from '../helpers/stack';

jest.setTimeout(60_000);

let app: TestApp;
let flowId: string;
beforeAll(async () => {
  app = await startTestApp();
  const { workspaceId } = await app.newWorkspace();
  const graph = {
    nodes: [
      { id: 'start', type: 'start', next: 'end' },
      { id: 'end', type: 'end' },
    ],
  };
  flowId = (await importFlow(app.db, workspaceId, { name: 'Demo', publicChat: true, ownerName: 'Ava', graph })).id;
});
afterAll(async () => {
  await app?.close();
});

const directives = (policy: string | null) => Object.fromEntries((policy ?? '').split(/;\s*/).map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')]));

describe('the chat demo page', () => {
  it('sends a strict Content-Security-Policy with a fresh nonce for the widget, and refuses to be framed', async () => {
    const [a, b] = [await app.request('GET', `/webchat/demo/${flowId}`), await app.request('GET', `/webchat/demo/${flowId}`)];
    expect(a.status).toBe(200);
    expect(a.headers.get('x-frame-options')).toBe('DENY');
    const policy = directives(a.headers.get('content-security-policy'));
    const nonce = /<script src="\/webchat\/widget\.js" nonce="([^"]+)"/.exec(a.body as string)?.[1];
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(policy).toEqual({
      'default-src': "'none'",
      'script-src': "'self'",
      'style-src': `'nonce-${nonce}'`,
      'img-src': "'self' https: data:",
      'connect-src': `'self' ws://${new URL(app.url).host}`,
      'base-uri': "'none'",
      'form-action': "'none'",
      'frame-ancestors': "'none'",
    });
    expect(directives(b.headers.get('content-security-policy'))['style-src']).not.toBe(policy['style-src']);
    // The page has no inline script or style of its own for the policy to allow.
    expect(a.body).not.toMatch(/<script>|<style|style="/);
  });

  it('leaves the widget script, its pictures and the API without frame restrictions (customers embed the widget)', async () => {
    for (const path of ['/webchat/widget.js', '/webchat/avatar.svg', '/healthz']) {
      const res = await app.request('GET', path);
      expect([path, res.status, res.headers.get('x-frame-options'), res.headers.get('content-security-policy')]).toEqual([path, 200, null, null]);
    }
  });
});
