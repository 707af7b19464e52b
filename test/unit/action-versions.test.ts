import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { defineAction, defineIntegration, type IntegrationDefinition } from '../../src/integrations/define';
import { catalogueEntry, findAction } from '../../src/integrations/registry';
import { parseJourneyDefinition } from '../../src/journeys/import';
import { parseFlowGraph, pinFlowActionVersions } from '../../src/chat/flow-schema';

// Issue 27: an action's params may change in a later version without breaking a journey stored with the old one.
const v1 = defineAction({
  key: 'create_note',
  title: 'Create a note',
  input: z.strictObject({ text: z.string() }),
  output: z.unknown(),
  idempotent: false,
  docs: 'https://example.com/notes',
  run: async (input, ctx) => (await ctx.http.request({ method: 'POST', path: '/notes', json: { body: input.text } })).body,
});
const v2 = defineAction({
  key: 'create_note',
  version: 2,
  title: 'Create a note',
  input: z.strictObject({ content: z.object({ title: z.string(), body: z.string() }) }),
  output: z.unknown(),
  idempotent: false,
  docs: 'https://example.com/notes/v2',
  run: async (input, ctx) => (await ctx.http.request({ method: 'POST', path: '/v2/notes', json: input.content })).body,
});
const notes = (baseUrl: string): IntegrationDefinition =>
  defineIntegration({ key: 'notes_demo', name: 'Notes', auth: { kinds: ['none'], apply: () => ({}) }, baseUrl, actions: [v2, v1] });

describe('versioned actions', () => {
  it("finds the latest version unless one is asked for; the catalogue lists every version, today's fields unchanged", () => {
    const i = notes('https://notes.example.com');
    expect(findAction(i, 'create_note')).toBe(v2);
    expect(findAction(i, 'create_note', 1)).toBe(v1);
    expect(findAction(i, 'create_note', 3)).toBeUndefined();
    const [entry] = catalogueEntry(i).actions;
    expect(catalogueEntry(i).actions).toHaveLength(1);
    expect(entry).toMatchObject({ key: 'create_note', title: 'Create a note', idempotent: false, docs: 'https://example.com/notes/v2', version: 2 });
    expect(entry!.versions.map((v) => [v.version, Object.keys(v.input.properties as object)])).toEqual([
      [1, ['text']],
      [2, ['content']],
    ]);
  });

  it('refuses a duplicate version or a gap', () => {
    const base = { key: 'x', name: 'X', auth: { kinds: ['none' as const], apply: () => ({}) }, baseUrl: 'https://x.example.com' };
    expect(() => defineIntegration({ ...base, actions: [v1, { ...v1 }] })).toThrow(/duplicate action create_note/);
    expect(() => defineIntegration({ ...base, actions: [v2] })).toThrow(/versions must run 1, 2/);
  });

  it('a step stored with version 1 runs with its old params after version 2 changed them', async () => {
    const got: { path: string; body: unknown }[] = [];
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        got.push({ path: req.url ?? '', body: JSON.parse(body) });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"n1"}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      let run!: typeof import('../../src/integrations/run');
      jest.isolateModules(() => {
        jest.doMock('../../src/integrations/catalogue', () => ({ notes_demo: notes(baseUrl) }));
        run = require('../../src/integrations/run') as typeof import('../../src/integrations/run');
      });
      const common = {
        integration: 'notes_demo',
        action: 'create_note',
        connection: { id: null, integration: 'notes_demo', kind: 'none' as const, secrets: {}, settings: {} },
        idempotencyKey: 'k',
        ssrfAllowlist: ['127.0.0.1/32'],
      };
      await run.runIntegrationAction({ ...common, version: 1, params: { text: 'old shape' } });
      await run.runIntegrationAction({ ...common, params: { content: { title: 't', body: 'new shape' } } });
      expect(got).toEqual([
        { path: '/notes', body: { body: 'old shape' } },
        { path: '/v2/notes', body: { title: 't', body: 'new shape' } },
      ]);
      // The old params against the latest version are refused before anything is sent; an unknown version too.
      await expect(run.runIntegrationAction({ ...common, params: { text: 'old shape' } })).rejects.toMatchObject({ type: 'invalid_params' });
      await expect(run.runIntegrationAction({ ...common, version: 7, params: {} })).rejects.toMatchObject({
        type: 'unknown_action_version',
        message: expect.stringMatching(/versions: 1, 2/),
      });
      expect(got).toHaveLength(2);
    } finally {
      server.close();
    }
  });

  it('journeys and chat flows imported without a version are pinned to the current one', () => {
    const journey = parseJourneyDefinition({
      name: 'j',
      steps: [
        { id: 'a', kind: 'automation', automationType: 'slack', action: 'post_message', params: {} },
        { id: 'e', kind: 'end' },
      ],
    });
    expect(journey.steps[0]).toMatchObject({ kind: 'automation', action: 'post_message', version: 1 });
    const kept = parseJourneyDefinition({
      name: 'j',
      steps: [{ id: 'a', kind: 'automation', automationType: 'slack', action: 'post_message', version: 1, params: {} }],
    });
    expect(kept.steps[0]).toMatchObject({ version: 1 });
    const graph = pinFlowActionVersions(
      parseFlowGraph({
        nodes: [
          { id: 's', type: 'start', next: 'a' },
          { id: 'a', type: 'automation', integration: 'slack', action: 'post_message', params: { channel: 'C1', text: 'hi' }, next: 'e' },
          { id: 'e', type: 'end' },
        ],
      }),
    );
    expect(graph.nodes[1]).toMatchObject({ type: 'automation', version: 1 });
  });
});
