import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Connection } from '../../src/integrations/define';
import { runIntegrationAction } from '../../src/integrations/run';
import { startVendorSandbox, type VendorSandbox } from '../../src/sandbox/server';
import { sandboxEndpoints } from '../../src/sandbox/endpoint';
import { SANDBOX_TOKEN } from '../../src/sandbox/vendor';
import { vendorProblems } from '../helpers/sandbox-ledger';

let sandbox: VendorSandbox;
let endpoints: string[];
beforeAll(async () => {
  sandbox = await startVendorSandbox();
  endpoints = sandboxEndpoints({ NODE_ENV: 'development', VENDOR_SANDBOX_URL: sandbox.url });
});
afterAll(() => sandbox.close());

const conn = (integration: string, token = SANDBOX_TOKEN, baseUrl = sandbox.baseUrl(integration)): Connection => ({
  id: null,
  integration,
  kind: 'api_key',
  secrets: { api_key: token },
  settings: { base_url: baseUrl },
});
let seq = 0;
/** Runs a real integration action against the sandbox, through the outbound guard with only the sandbox let through. */
const run = (integration: string, action: string, params: unknown, connection = conn(integration)) =>
  runIntegrationAction({ integration, action, params, connection, idempotencyKey: `req-${++seq}`, endpoints, http: { maxAttempts: 1 } });
const last = () => sandbox.ledger.entries[sandbox.ledger.entries.length - 1]!;
const post = async (path: string, body: unknown, token?: string) => {
  const res = await fetch(`${sandbox.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
};

describe('the vendor sandbox', () => {
  test("Slack chat.postMessage: answers Slack's shape; the request is Slack's and is in the ledger with its token redacted", async () => {
    const out = await run('slack', 'post_message', { channel: '#demo', text: 'hi' });
    expect(out.data).toEqual({ channel: expect.stringMatching(/^C[0-9A-F]{10}$/), ts: expect.stringMatching(/^\d+\.\d{6}$/) });
    expect(last()).toMatchObject({
      integration: 'slack',
      method: 'POST',
      path: '/slack/api/chat.postMessage',
      status: 200,
      body: { channel: '#demo', text: 'hi' },
      response: { ok: true, message: { text: 'hi' } },
    });
    expect(last().headers.authorization).toBe('Bearer [redacted]');
    expect(JSON.stringify(sandbox.ledger.entries)).not.toContain(SANDBOX_TOKEN);
    expect(vendorProblems(last())).toEqual([]);
  });

  test("Slack failures come as ok:false with Slack's codes", async () => {
    expect((await post('/slack/api/chat.postMessage', { channel: 'C1', text: 'x' })).body).toEqual({ ok: false, error: 'not_authed' });
    await expect(run('slack', 'post_message', { channel: 'C1', text: 'x' }, conn('slack', 'wrong'))).rejects.toMatchObject({ type: 'vendor_auth_failed' });
    expect((await post('/slack/api/chat.postMessage', { text: 'x' }, SANDBOX_TOKEN)).body).toEqual({ ok: false, error: 'channel_not_found' });
    expect((await post('/slack/api/chat.postMessage', { channel: 'C1' }, SANDBOX_TOKEN)).body).toEqual({ ok: false, error: 'no_text' });
  });

  test('HubSpot contacts: 201 SimplePublicObject, a taken email 409 with the existing id (the action returns it)', async () => {
    const first = await run('hubspot', 'create_contact', { email: 'Ann@example.com', firstname: 'Ann' });
    expect(first.data).toMatchObject({ id: expect.stringMatching(/^\d+$/), existing: false, properties: { email: 'Ann@example.com', firstname: 'Ann' } });
    expect(last()).toMatchObject({ status: 201, response: { archived: false, createdAt: expect.any(String), updatedAt: expect.any(String) } });
    expect(vendorProblems(last())).toEqual([]);
    const again = await run('hubspot', 'create_contact', { email: 'ann@example.com', lastname: 'Lee' });
    expect(again.data).toMatchObject({ id: (first.data as { id: string }).id, existing: true, properties: { firstname: 'Ann', lastname: 'Lee' } });
    const [conflict, update] = sandbox.ledger.entries.slice(-2);
    expect(conflict).toMatchObject({ status: 409, response: { category: 'CONFLICT' } });
    expect(update).toMatchObject({ method: 'PATCH', path: `/hubspot/crm/v3/objects/contacts/${(first.data as { id: string }).id}`, status: 200 });
  });

  test('HubSpot contacts: update by email, search by email; an unknown email is a 404', async () => {
    await run('hubspot', 'create_contact', { email: 'bo@example.com', firstname: 'Bo' });
    await expect(run('hubspot', 'update_contact', { email: 'BO@example.com', properties: { phone: '+14155550100' } })).resolves.toMatchObject({
      data: { properties: { phone: '+14155550100', firstname: 'Bo' } },
    });
    await expect(run('hubspot', 'search_contacts', { email: 'bo@example.com' })).resolves.toMatchObject({
      data: { total: 1, contacts: [{ properties: { email: 'bo@example.com', phone: '+14155550100' } }] },
    });
    await expect(run('hubspot', 'update_contact', { email: 'nobody@example.com', properties: { phone: '1' } })).rejects.toMatchObject({
      type: 'vendor_not_found',
    });
  });

  test('HubSpot refuses what its description refuses: no associations is a VALIDATION_ERROR', async () => {
    const res = await post('/hubspot/crm/v3/objects/contacts', { properties: { email: 'x@example.com' } }, SANDBOX_TOKEN);
    expect(res).toMatchObject({ status: 400, body: { status: 'error', category: 'VALIDATION_ERROR', message: expect.stringMatching(/associations/) } });
    expect(vendorProblems(last()).join('\n')).toMatch(/associations/);
    expect((await post('/hubspot/crm/v3/objects/contacts', { properties: {}, associations: [] })).status).toBe(401);
  });

  test('Google Calendar: freeBusy says free, events.insert books with the given id, the same id again is a 409', async () => {
    const params = { summary: 'Demo call', start: '2030-01-07T15:00:00Z', findFreeSlot: true };
    const out = await run('google_calendar', 'appointment', params);
    expect(out.data).toMatchObject({
      start: '2030-01-07T15:00:00.000Z',
      end: '2030-01-07T15:30:00.000Z',
      existing: false,
      htmlLink: expect.stringMatching(/^https:\/\//),
    });
    const [busy, insert] = sandbox.ledger.entries.slice(-2);
    expect(busy).toMatchObject({
      path: '/google_calendar/calendar/v3/freeBusy',
      response: { kind: 'calendar#freeBusy', calendars: { primary: { busy: [] } } },
    });
    expect(insert).toMatchObject({
      path: '/google_calendar/calendar/v3/calendars/primary/events',
      status: 200,
      response: { kind: 'calendar#event', status: 'confirmed', summary: 'Demo call' },
    });
    expect(vendorProblems(insert!)).toEqual([]);
    const event = { id: 'abc123def', start: { dateTime: '2030-01-07T15:00:00Z' }, end: { dateTime: '2030-01-07T15:30:00Z' } };
    expect((await post('/google_calendar/calendar/v3/calendars/primary/events', event, SANDBOX_TOKEN)).status).toBe(200);
    expect((await post('/google_calendar/calendar/v3/calendars/primary/events', event, SANDBOX_TOKEN)).body.error).toMatchObject({
      code: 409,
      status: 'ALREADY_EXISTS',
    });
    expect((await post('/google_calendar/calendar/v3/calendars/primary/events', { start: event.start }, SANDBOX_TOKEN)).body.error).toMatchObject({
      code: 400,
      message: expect.stringMatching(/end/),
    });
  });

  test('Google Calendar: a booked appointment is rescheduled, then cancelled; cancelling again is already cancelled', async () => {
    const booked = await run('google_calendar', 'appointment', { summary: 'Move me', start: '2030-02-01T09:00:00Z' });
    const eventId = (booked.data as { id: string }).id;
    await expect(run('google_calendar', 'reschedule_appointment', { eventId, start: '2030-02-02T10:00:00Z', durationMinutes: 45 })).resolves.toMatchObject({
      data: { id: eventId, start: '2030-02-02T10:00:00.000Z', end: '2030-02-02T10:45:00.000Z' },
    });
    await expect(run('google_calendar', 'cancel_appointment', { eventId })).resolves.toMatchObject({ data: { alreadyCancelled: false } });
    await expect(run('google_calendar', 'cancel_appointment', { eventId })).resolves.toMatchObject({ data: { alreadyCancelled: true } });
    await expect(run('google_calendar', 'reschedule_appointment', { eventId: 'nosuchevent', start: '2030-02-02T10:00:00Z' })).rejects.toMatchObject({
      type: 'vendor_not_found',
    });
  });

  test('GET /ledger lists every request, unknown paths included', async () => {
    await fetch(`${sandbox.url}/nowhere`, { method: 'POST' });
    const { requests } = (await (await fetch(`${sandbox.url}/ledger`)).json()) as { requests: { path: string; integration: string | null; status: number }[] };
    expect(requests.length).toBe(sandbox.ledger.entries.length);
    expect(requests[requests.length - 1]).toMatchObject({ path: '/nowhere', integration: null, status: 404 });
  });
});

describe('the outbound guard and the sandbox', () => {
  test('lets vendor requests reach exactly the sandbox: another loopback port stays refused, nothing is sent', async () => {
    let hits = 0;
    const other = http.createServer((_req, res) => (hits++, res.end('{}')));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const port = (other.address() as AddressInfo).port;
      const elsewhere = conn('slack', SANDBOX_TOKEN, `http://127.0.0.1:${port}/slack/api`);
      await expect(run('slack', 'post_message', { channel: 'C1', text: 'x' }, elsewhere)).rejects.toMatchObject({ type: 'ssrf_blocked' });
      expect(hits).toBe(0);
    } finally {
      other.close();
    }
  });

  test('the sandbox is let through only outside production and only as a loopback IP literal', () => {
    expect(sandboxEndpoints({ NODE_ENV: 'development', VENDOR_SANDBOX_URL: 'http://127.0.0.1:3078' })).toEqual(['127.0.0.1:3078']);
    expect(sandboxEndpoints({ NODE_ENV: 'development', VENDOR_SANDBOX_URL: 'http://[::1]:3078' })).toEqual(['::1:3078']);
    expect(sandboxEndpoints({ NODE_ENV: 'production', VENDOR_SANDBOX_URL: 'http://127.0.0.1:3078' })).toEqual([]);
    expect(sandboxEndpoints({ NODE_ENV: 'development', VENDOR_SANDBOX_URL: 'http://localhost:3078' })).toEqual([]);
    expect(sandboxEndpoints({ NODE_ENV: 'development', VENDOR_SANDBOX_URL: 'http://10.0.0.5:3078' })).toEqual([]);
    expect(sandboxEndpoints({ NODE_ENV: 'development', VENDOR_SANDBOX_URL: undefined })).toEqual([]);
  });
});
