import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ssrfAllowlist } from '../../src/net/ssrf';
import { ChatModelError, OpenAiChatModel } from '../../src/llm/openai';

/** A local OpenAI-compatible server answering with the given statuses in turn (200: a completion). */
async function server(statuses: number[]) {
  const seen: { body: any; auth?: string }[] = [];
  const srv = http.createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      seen.push({ body: JSON.parse(text), auth: req.headers.authorization });
      const status = statuses[Math.min(seen.length - 1, statuses.length - 1)]!;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(status === 200 ? JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content: 'support' } }] }) : '{"error":{}}');
    });
  });
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}/v1`, seen, close: () => new Promise((r) => srv.close(r)) };
}

const model = (baseUrl: string, allow = true) =>
  new OpenAiChatModel({ baseUrl, apiKey: 'k', model: 'm', timeoutMs: 5000, retries: 2, ssrf: allow ? { allow: ssrfAllowlist(['127.0.0.1/8']) } : {} });

describe('OpenAI-compatible chat model', () => {
  test('retries 5xx and 429, then answers; classification picks a label', async () => {
    const s = await server([503, 429, 200]);
    try {
      expect(await model(s.url).classify({ labels: ['sales', 'support'], input: 'help me' })).toBe('support');
      expect(s.seen).toHaveLength(3);
      expect(s.seen[0]!.auth).toBe('Bearer k');
      expect(s.seen[0]!.body).toEqual({
        model: 'm',
        messages: [
          { role: 'system', content: expect.stringContaining('sales, support') },
          { role: 'user', content: 'help me' },
        ],
      });
    } finally {
      await s.close();
    }
  });

  test('does not retry a 4xx; gives up after the retries', async () => {
    const bad = await server([400]);
    const down = await server([500]);
    try {
      await expect(model(bad.url).reply({ prompt: 'p', facts: [], history: [], input: 'x' })).rejects.toThrow(
        new ChatModelError('chat model answered 400', false),
      );
      expect(bad.seen).toHaveLength(1);
      await expect(model(down.url).reply({ prompt: 'p', facts: [], history: [], input: 'x' })).rejects.toThrow('chat model answered 500');
      expect(down.seen).toHaveLength(3);
    } finally {
      await bad.close();
      await down.close();
    }
  });

  test('the SSRF guard refuses a loopback base URL unless SSRF_ALLOWLIST lists it', async () => {
    const s = await server([200]);
    try {
      await expect(model(s.url, false).reply({ prompt: 'p', facts: [], history: [], input: 'x' })).rejects.toThrow(/private or loopback/);
      expect(s.seen).toHaveLength(0);
    } finally {
      await s.close();
    }
  });
});
