import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { timingSafeEqual } from 'node:crypto';
import type { MachineDetection } from '../provider';
import { CALL_ID_HEADER } from '../twilio';
import { Ledger, type LedgerEntry, type SimCall } from './ledger';
import { CallPlayer, newCallSid } from './player';
import { ruleFor, scriptFor } from './rules';
import { readBody, send } from './http';
import { callListResource, callResource, twilioError } from './resources';
import { loadState, saveState, throttled } from './state';

/** Options of the carrier simulator. */
export interface SimulatorOptions {
  port?: number;
  host?: string;
  authToken: string;
  accountSid?: string;
  /** Time scale: 1 plays calls in real time (each within ~10 s), 20 plays them 20 times faster. */
  speed?: number;
  /** Transfer number when the voice-agent URL carries no `transfer_to`. */
  defaultTransferTo?: string;
  /**
   * Keeps the ledger and every call in this file (`npm start`: under .data/): a restarted simulator loads it, and the
   * calls that had not ended go on where they were, sending their remaining callbacks.
   */
  stateFile?: string;
  /** Sees every Calls API request as received (tests validate them against Twilio's OpenAPI description). */
  onRequest?: (request: { method: string; path: string; headers: http.IncomingHttpHeaders; body: string }) => void;
}

/** A running simulator. */
export interface Simulator {
  url: string;
  port: number;
  accountSid: string;
  ledger: Ledger;
  /** Resolves once every placement has ended and its callbacks were delivered ('0007' calls never end). */
  settled(sid: string): Promise<void>;
  close(): Promise<void>;
}

/** Default account of the simulator (and of TWILIO_ACCOUNT_SID). */
export const SIMULATOR_ACCOUNT_SID = 'AC00000000000000000000000000000000';

const MACHINE_DETECTION = new Set(['Enable', 'DetectMessageEnd']);
const CALLS = /^\/2010-04-01\/Accounts\/([^/]+)\/Calls\.json$/;
const CALL = /^\/2010-04-01\/Accounts\/([^/]+)\/Calls\/([^/]+)\.json$/;

/** Starts the carrier simulator: Twilio's Calls API on loopback, signed status callbacks, and GET /ledger. */
export async function startSimulator(options: SimulatorOptions): Promise<Simulator> {
  const accountSid = options.accountSid ?? SIMULATOR_ACCOUNT_SID;
  const speed = options.speed ?? 1;
  if (!(speed > 0)) throw new Error('speed must be a positive number');
  const host = options.host ?? '127.0.0.1';
  const ledger = new Ledger();
  const players = new Map<string, CallPlayer>();
  const persist = options.stateFile ? throttled(() => saveState(options.stateFile!, ledger), 100) : undefined;
  const playerContext = { ledger, accountSid, authToken: options.authToken, speed, changed: persist };
  for (const saved of options.stateFile ? loadState(options.stateFile) : []) {
    ledger.add(saved.entry, saved.root);
    for (const leg of saved.legs) ledger.addLeg(saved.entry, leg, true);
    const player = new CallPlayer(playerContext, saved.entry, saved.root, saved.legs);
    players.set(saved.root.sid, player);
    if (player.active) player.play(scriptFor(saved.entry.rule, saved.entry.machineDetection));
  }
  const expectedAuth = Buffer.from(`Basic ${Buffer.from(`${accountSid}:${options.authToken}`).toString('base64')}`);

  const authorized = (req: http.IncomingMessage, pathSid: string) => {
    const given = Buffer.from(req.headers.authorization ?? '');
    return pathSid === accountSid && given.length === expectedAuth.length && timingSafeEqual(given, expectedAuth);
  };

  const create = (form: URLSearchParams, callId: string | null): [number, unknown] => {
    const repeat = callId ? ledger.forCallId(callId) : undefined;
    if (repeat) {
      repeat.repeatedCreates++;
      return [201, callResource(accountSid, ledger.find(repeat.sid)!.call)];
    }
    const to = form.get('To');
    const from = form.get('From');
    const url = form.get('Url');
    if (!to) return [400, twilioError(400, 21201, "No 'To' number is specified")];
    if (!from) return [400, twilioError(400, 21213, "No 'From' number is specified")];
    if (!url || !URL.canParse(url)) return [400, twilioError(400, 21205, 'Url is not a valid URL')];
    const statusCallback = form.get('StatusCallback');
    if (statusCallback && !URL.canParse(statusCallback)) return [400, twilioError(400, 21609, 'StatusCallback is not a valid URL')];
    const amd = form.get('MachineDetection');
    if (amd && !MACHINE_DETECTION.has(amd)) return [400, twilioError(400, 21626, 'MachineDetection must be Enable or DetectMessageEnd')];
    const call: SimCall = {
      sid: newCallSid(),
      parentSid: null,
      to,
      from,
      status: 'queued',
      answeredAt: null,
      createdAt: new Date().toISOString(),
      nextSequence: 0,
      leg: 0,
      played: 0,
    };
    const entry: LedgerEntry = {
      callId,
      sid: call.sid,
      to,
      from,
      url,
      statusCallback,
      machineDetection: (amd as MachineDetection | null) ?? 'off',
      transferTo: new URL(url).searchParams.get('transfer_to') ?? options.defaultTransferTo ?? '+18005550100',
      rule: ruleFor(to),
      createdAt: call.createdAt,
      status: 'queued',
      repeatedCreates: 0,
      legs: [],
      callbacks: [],
    };
    ledger.add(entry, call);
    const player = new CallPlayer(playerContext, entry, call);
    players.set(call.sid, player);
    player.play(scriptFor(entry.rule, entry.machineDetection));
    return [201, callResource(accountSid, call)];
  };

  const update = (sid: string, form: URLSearchParams): [number, unknown] => {
    const found = ledger.find(sid);
    if (!found || found.call.parentSid) return [404, twilioError(404, 20404, `The requested resource ${sid} was not found`)];
    const status = form.get('Status');
    if (status !== 'canceled' && status !== 'completed') return [400, twilioError(400, 21218, 'Status must be canceled or completed')];
    const unanswered = found.call.status === 'queued' || found.call.status === 'ringing';
    // Like Twilio: `canceled` only stops a call that has not been answered; `completed` hangs up whatever the state.
    if (status === 'completed' || unanswered) players.get(sid)?.end();
    return [200, callResource(accountSid, found.call)];
  };

  const fetchOne = (sid: string): [number, unknown] => {
    const found = ledger.find(sid);
    return found ? [200, callResource(accountSid, found.call)] : [404, twilioError(404, 20404, `The requested resource ${sid} was not found`)];
  };

  // Twilio's filters this client uses (ParentCallSid, To, From, Status), newest first.
  const list = (query: URLSearchParams): [number, unknown] => {
    const filters: [string | null, (c: SimCall) => string | null][] = [
      [query.get('ParentCallSid'), (c) => c.parentSid],
      [query.get('To'), (c) => c.to],
      [query.get('From'), (c) => c.from],
      [query.get('Status'), (c) => c.status],
    ];
    const matching = ledger.calls().filter((c) => filters.every(([want, field]) => want === null || field(c) === want));
    return [200, callListResource(accountSid, matching.reverse(), query)];
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://simulator');
    const path = url.pathname;
    if (req.method === 'GET' && path === '/ledger') return send(res, 200, { calls: ledger.entries });
    const calls = CALLS.exec(path);
    const one = CALL.exec(path);
    if (!calls && !one) return send(res, 404, twilioError(404, 20404, 'The requested resource was not found'));
    if (req.method !== 'POST' && req.method !== 'GET') return send(res, 405, twilioError(405, 20004, 'Method not allowed'));
    if (!authorized(req, (calls ?? one)![1]!)) return send(res, 401, twilioError(401, 20003, 'Authenticate'));
    if (req.method === 'GET') {
      options.onRequest?.({ method: 'GET', path: `${path}${url.search}`, headers: req.headers, body: '' });
      const [status, body] = calls ? list(url.searchParams) : fetchOne(one![2]!);
      return send(res, status, body);
    }
    if (!String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
      return send(res, 400, twilioError(400, 20001, 'Content-Type must be application/x-www-form-urlencoded'));
    }
    const raw = await readBody(req);
    options.onRequest?.({ method: req.method, path, headers: req.headers, body: raw });
    const form = new URLSearchParams(raw);
    const header = req.headers[CALL_ID_HEADER];
    const [status, body] = calls ? create(form, typeof header === 'string' && header ? header : null) : update(one![2]!, form);
    send(res, status, body);
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch(() => send(res, 500, twilioError(500, 20500, 'Internal server error')));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const publicUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  return {
    url: publicUrl,
    port,
    accountSid,
    ledger,
    async settled(sid) {
      const player = players.get(sid);
      if (!player) return;
      await player.ended;
      await player.settled();
    },
    async close() {
      for (const player of players.values()) player.stop();
      // Callbacks in flight get a moment to be answered, so the state saved records them.
      await Promise.race([Promise.all([...players.values()].map((p) => p.settled())), new Promise((r) => setTimeout(r, 1000).unref())]);
      persist?.flush();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
