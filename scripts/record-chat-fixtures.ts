// Records chatSession replay fixtures: runs each chat path on the test stack (a private Postgres and a Temporal dev
// server, as `npm test` starts them) and saves the run's history as test/fixtures/chat-history-<path>[-<tag>].json.
// It never replaces a file: old histories must keep replaying, so a new recording gets a new name (--tag).
//
//   node bin/run-ts.js scripts/record-chat-fixtures.ts [--tag v2] [--only conversation,idle]
import { temporal } from '@temporalio/proto';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { existsSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { repoRoot } from '../test/helpers/env';
import globalSetup from '../test/helpers/global-setup';
import globalTeardown from '../test/helpers/global-teardown';
import { startTestApp } from '../test/helpers/stack';
import { chatPaths, type ChatPathContext } from './chat-fixture-paths';
import type { RecordedRun } from './journey-fixture-helpers';

const { values } = parseArgs({ options: { tag: { type: 'string' }, only: { type: 'string' } } });
const names = values.only ? values.only.split(',').map((s) => s.trim()) : Object.keys(chatPaths);
const unknown = names.filter((n) => !(n in chatPaths));
if (unknown.length) fail(`unknown path(s) ${unknown.join(', ')}; known: ${Object.keys(chatPaths).join(', ')}`);
if (values.tag !== undefined && !/^[a-z0-9][a-z0-9-]*$/.test(values.tag)) fail('--tag takes lowercase letters, digits and dashes');

const fileOf = (name: string) => path.join(repoRoot, 'test', 'fixtures', `chat-history-${name}${values.tag ? `-${values.tag}` : ''}.json`);
const taken = names.filter((n) => existsSync(fileOf(n)));
if (taken.length) {
  fail(
    `refusing to overwrite ${taken.map((n) => path.relative(repoRoot, fileOf(n))).join(', ')}: recorded histories must keep replaying. ` +
      'Record under a new name with --tag (e.g. --tag v2), or leave those paths out with --only.',
  );
}

function fail(message: string): never {
  process.stderr.write(`record-chat-fixtures: ${message}\n`);
  process.exit(1);
}

/** A local OpenAI-compatible model: answers every chat completion with "model says: <last message>". */
async function fakeModel(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      const body = JSON.parse(text) as { messages: { content: string }[] };
      res.writeHead(200, { 'content-type': 'application/json' });
      const content = `model says: ${body.messages.at(-1)!.content}`;
      res.end(JSON.stringify({ id: 'c1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

async function save(ctx: ChatPathContext, name: string, run: RecordedRun): Promise<void> {
  const history = await ctx.app.temporal.client.workflow.getHandle(run.workflowId, run.runId).fetchHistory();
  // protobufjs' own object form (longs, enums and bytes as strings) round-trips with History.fromObject.
  const object = temporal.api.history.v1.History.toObject(history as temporal.api.history.v1.History, { longs: String, enums: String, bytes: String });
  writeFileSync(fileOf(name), `${JSON.stringify({ workflowId: run.workflowId, history: object }, null, 1)}\n`, { flag: 'wx' });
  process.stdout.write(`recorded ${path.relative(repoRoot, fileOf(name))} (${history.events?.length} events)\n`);
}

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  await globalSetup();
  const model = await fakeModel();
  // The worker's model is the fake; each path picks scripted or openai through its Conversation's configuration.
  const app = await startTestApp({ workers: true, config: { SSRF_ALLOWLIST: '127.0.0.0/8', CHAT_MODEL_BASE_URL: model.url, CHAT_MODEL_API_KEY: 'sk-fixture' } });
  try {
    const ctx: ChatPathContext = { app, modelUrl: model.url };
    const runs = await Promise.all(names.map(async (name) => [name, await chatPaths[name]!(ctx)] as const));
    for (const [name, run] of runs) await save(ctx, name, run);
  } finally {
    await app.close();
    await model.close();
    await globalTeardown();
  }
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
