import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One registered client of the fake authorization server. */
export interface FakeClient {
  secret: string;
  /** How the token endpoint insists the client authenticates (RFC 6749 §2.3.1). */
  auth: 'client_secret_basic' | 'client_secret_post';
  /** Extra fields of the token answer (Salesforce's instance_url, …). */
  extra?: Record<string, unknown>;
}

/** What the token endpoint refused, and why (for assertions). */
export interface Refusal {
  grant: string;
  reason: 'client' | 'code_unknown' | 'code_reused' | 'redirect_uri' | 'pkce' | 'refresh_refused' | 'refresh_unknown';
}

/**
 * An OAuth 2.0 authorization server as a local HTTP server (RFC 6749 + RFC 7636): /authorize issues a code bound to the
 * client, redirect_uri and S256 challenge and redirects back at once (the user consents); /token checks the client's
 * authentication the way it was registered, spends each code once (a reused code is refused and revokes what it gave),
 * checks redirect_uri and the PKCE verifier, and renews refresh tokens unless told to refuse; /revoke (RFC 7009) and
 * HubSpot's token-information endpoint are there too.
 */
export class FakeOAuthServer {
  readonly clients = new Map<string, FakeClient>();
  readonly authorizeRequests: URLSearchParams[] = [];
  readonly tokenRequests: { form: URLSearchParams; authorization?: string }[] = [];
  readonly refusals: Refusal[] = [];
  readonly revoked: string[] = [];
  /** Refresh grants are refused (invalid_grant) while true. */
  refuseRefresh = false;
  private readonly codes = new Map<string, { clientId: string; redirectUri: string; challenge: string; used: boolean; issued: string[] }>();
  private readonly refreshTokens = new Set<string>();
  private server?: http.Server;
  url = '';

  async start(): Promise<string> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', this.url);
        const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
        const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
        if (req.method === 'GET' && url.pathname === '/authorize') return this.authorize(url.searchParams, res);
        if (req.method === 'POST' && url.pathname === '/token') return this.token(form, req.headers.authorization, json);
        if (req.method === 'POST' && url.pathname === '/revoke') {
          this.revoked.push(form.get('token') ?? '');
          this.refreshTokens.delete(form.get('token') ?? '');
          return res.writeHead(200).end();
        }
        const info = /^\/oauth\/v1\/access-tokens\/(.+)$/.exec(url.pathname);
        if (req.method === 'GET' && info) return json(200, { token: decodeURIComponent(info[1]!), hub_id: 4242, user: 'someone' });
        json(404, { error: 'not_found' });
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  /** The user consents at once: a code for this client, redirect_uri and challenge, sent back with the state. */
  private authorize(q: URLSearchParams, res: http.ServerResponse): void {
    this.authorizeRequests.push(q);
    const clientId = q.get('client_id') ?? '';
    const redirectUri = q.get('redirect_uri') ?? '';
    if (!this.clients.has(clientId) || q.get('response_type') !== 'code' || q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge')) {
      res.writeHead(400).end('bad authorization request');
      return;
    }
    const code = `code-${randomBytes(12).toString('hex')}`;
    this.codes.set(code, { clientId, redirectUri, challenge: q.get('code_challenge')!, used: false, issued: [] });
    const back = new URL(redirectUri);
    back.searchParams.set('code', code);
    back.searchParams.set('state', q.get('state') ?? '');
    res.writeHead(302, { location: back.toString() }).end();
  }

  private clientOf(form: URLSearchParams, authorization: string | undefined): string | undefined {
    let id: string | undefined;
    let secret: string | undefined;
    let how: FakeClient['auth'];
    if (authorization?.startsWith('Basic ')) {
      const [u = '', p = ''] = Buffer.from(authorization.slice(6), 'base64').toString('utf8').split(':');
      [id, secret, how] = [decodeURIComponent(u), decodeURIComponent(p), 'client_secret_basic'];
    } else {
      [id, secret, how] = [form.get('client_id') ?? undefined, form.get('client_secret') ?? undefined, 'client_secret_post'];
    }
    const client = id ? this.clients.get(id) : undefined;
    return client && client.secret === secret && client.auth === how ? id : undefined;
  }

  private token(form: URLSearchParams, authorization: string | undefined, json: (status: number, body: unknown) => void): void {
    this.tokenRequests.push({ form, authorization });
    const grant = form.get('grant_type') ?? '';
    const refuse = (reason: Refusal['reason'], error = 'invalid_grant') => {
      this.refusals.push({ grant, reason });
      json(400, { error });
    };
    const clientId = this.clientOf(form, authorization);
    if (!clientId) return refuse('client', 'invalid_client');
    if (grant === 'authorization_code') {
      const code = this.codes.get(form.get('code') ?? '');
      if (!code || code.clientId !== clientId) return refuse('code_unknown');
      if (code.used) {
        // RFC 6749 §4.1.2: a code used twice revokes the tokens it gave.
        for (const t of code.issued) this.refreshTokens.delete(t);
        return refuse('code_reused');
      }
      code.used = true;
      if (form.get('redirect_uri') !== code.redirectUri) return refuse('redirect_uri');
      const challenge = createHash('sha256')
        .update(form.get('code_verifier') ?? '')
        .digest('base64url');
      if (challenge !== code.challenge) return refuse('pkce');
      const tokens = this.issue(clientId);
      code.issued.push(tokens.refresh_token);
      return json(200, tokens);
    }
    if (grant === 'refresh_token') {
      if (this.refuseRefresh) return refuse('refresh_refused');
      if (!this.refreshTokens.has(form.get('refresh_token') ?? '')) return refuse('refresh_unknown');
      this.refreshTokens.delete(form.get('refresh_token')!);
      return json(200, this.issue(clientId));
    }
    refuse('client', 'unsupported_grant_type');
  }

  private issue(clientId: string) {
    const refresh = `rt-${randomBytes(12).toString('hex')}`;
    this.refreshTokens.add(refresh);
    return {
      access_token: `at-${randomBytes(12).toString('hex')}`,
      refresh_token: refresh,
      token_type: 'Bearer',
      expires_in: 3600,
      ...this.clients.get(clientId)!.extra,
    };
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}
