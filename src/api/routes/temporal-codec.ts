import Router, { type RouterContext, type RouterMiddleware } from '@koa/router';
import { z } from 'zod';
import type { Config } from '../../core/config';
import { CODEC_PATH, CODEC_TOKEN_ROUTE, codecOrigins, codecToken } from '../../temporal/codec-endpoint';
import { sameSecret } from '../../crypto/same-secret';
import { keyringFromConfig, SealedValueError } from '../../crypto/keyring';
import { BEARER } from '../../auth/http/api-key-auth';
import { ApiError, badRequest, notFound, payloadTooLarge, unauthorized } from '../../http/api-error';
import { EncryptionCodec, runCodec } from '../../temporal/codec';
import type { AppState } from '../../http/state';

const MAX_BODY_BYTES = 8 * 1024 * 1024;

const body = z.object({
  payloads: z.array(z.object({ metadata: z.record(z.string(), z.string().base64()).nullish(), data: z.string().base64().nullish() }).strict()).max(10_000),
});

async function readBody(req: NodeJS.ReadableStream): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw payloadTooLarge();
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw badRequest('body: not JSON');
  }
}

/**
 * Temporal's remote codec protocol for the Web UI and the CLI (`--codec-endpoint`): POST /encode and /decode with
 * {payloads:[…]}, so operators read the encrypted payloads. Authenticated by `Authorization: Bearer <token>` (the CLI's
 * `--codec-auth`) or, for a UI that sends no header (the dev server's), the token as a path segment
 * (`/temporal-codec/<token>/decode`; logs and answers show the route pattern, never the token: src/http/shown-path.ts).
 * Browsers are allowed from the configured UI origins only. Without a token configured (production without
 * CODEC_SERVER_TOKEN) it answers 404; /encode only with CODEC_SERVER_ENCODE (docs/operations-security.md).
 */
export function temporalCodecRouter(config: Config): Router<AppState> {
  const router = new Router<AppState>();
  const token = codecToken(config);
  const origins = new Set(codecOrigins(config));
  const codec = new EncryptionCodec(keyringFromConfig(config));

  const cors = (ctx: RouterContext<AppState>) => {
    const origin = ctx.get('origin');
    ctx.vary('Origin');
    if (origin && origins.has(origin)) {
      ctx.set('Access-Control-Allow-Origin', origin);
      ctx.set('Access-Control-Allow-Credentials', 'true');
    }
  };
  const handle =
    (op: 'encode' | 'decode', fromPath: boolean): RouterMiddleware<AppState> =>
    async (ctx) => {
      cors(ctx);
      if (!token) throw notFound();
      const given = fromPath ? (ctx.params.token ?? '') : (BEARER.exec(ctx.get('authorization'))?.[1] ?? '');
      if (!sameSecret(given, token)) throw unauthorized('Codec endpoint: missing or wrong token');
      const parsed = body.safeParse(await readBody(ctx.req));
      if (!parsed.success) throw badRequest(`body: expected {"payloads":[{"metadata":{…base64},"data":base64}]} (${parsed.error.issues[0]?.message})`);
      try {
        ctx.body = await runCodec(codec, op, parsed.data.payloads);
      } catch (err) {
        if (err instanceof SealedValueError) throw badRequest(`payload does not decrypt: ${err.message}`);
        throw err;
      }
    };
  const preflight: RouterMiddleware<AppState> = (ctx) => {
    cors(ctx);
    if (!ctx.response.get('Access-Control-Allow-Origin')) throw new ApiError(403, 'forbidden', 'Origin not allowed for the codec endpoint');
    ctx.set('Access-Control-Allow-Methods', 'POST');
    ctx.set('Access-Control-Allow-Headers', 'Authorization, Content-Type, X-Namespace');
    ctx.set('Access-Control-Max-Age', '600');
    ctx.status = 204;
  };
  // Reading histories needs /decode only; /encode (sealing payloads a run would take as ours) when configured.
  for (const op of config.CODEC_SERVER_ENCODE ? (['encode', 'decode'] as const) : (['decode'] as const)) {
    router.post(`${CODEC_PATH}/${op}`, handle(op, false));
    router.post(`${CODEC_TOKEN_ROUTE}/${op}`, handle(op, true));
    router.options(`${CODEC_PATH}/${op}`, preflight);
    router.options(`${CODEC_TOKEN_ROUTE}/${op}`, preflight);
  }
  return router;
}
