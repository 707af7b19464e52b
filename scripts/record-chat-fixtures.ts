// Records chatSession replay fixtures: runs each chat path on the test stack (a private Postgres and a Temporal dev
// server, as `npm test` starts them) and saves the run's history as test/fixtures/chat-history-<path>[-<tag>].json.
// It never replaces a file: old histories must keep replaying, so a new recording gets a new name (--tag).
//
//   node bin/run-ts.js scripts/record-chat-fixtures.ts [--tag v2] [--only conversation,idle]
import { DefaultLogger, Runtime } from '@temporalio/worker';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import globalSetup from '../test/helpers/global-setup';
import globalTeardown from '../test/helpers/global-teardown';
import { startTestApp } from '../test/helpers/stack';
import { chatPaths, type ChatPathContext } from './chat-fixture-paths';
import { planRecording, runRecorder } from './fixture-recorder';

const plan = planRecording('chat', Object.keys(chatPaths));

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

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  await globalSetup();
  const model = await fakeModel();
  // The worker's model is the fake; each path picks scripted or openai through its Conversation's configuration.
  const app = await startTestApp({
    workers: true,
    config: { SSRF_ALLOWLIST: '127.0.0.0/8', CHAT_MODEL_BASE_URL: model.url, CHAT_MODEL_API_KEY: 'sk-fixture' },
  });
  try {
    const ctx: ChatPathContext = { app, modelUrl: model.url };
    await plan.recordAll(app.temporal.client, (name) => chatPaths[name]!(ctx));
  } finally {
    await app.close();
    await model.close();
    await globalTeardown();
  }
}

runRecorder(main);
