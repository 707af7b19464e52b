import type { Config } from '../core/config';
import { devSecret } from '../crypto/dev-secrets';

/** Where the api serves Temporal's remote codec protocol; the UI and CLI post to `<endpoint>/encode` and `/decode`. */
export const CODEC_PATH = '/temporal-codec';

/** The codec endpoint for a UI that sends no header: the token as a path segment (never logged or echoed). */
export const CODEC_TOKEN_ROUTE = `${CODEC_PATH}/:token`;

/** The codec endpoint's token: CODEC_SERVER_TOKEN, else (outside production) one generated into the data dir. */
export function codecToken(config: Pick<Config, 'NODE_ENV' | 'SWITCHBOARD_DATA_DIR' | 'CODEC_SERVER_TOKEN'>): string | undefined {
  if (config.CODEC_SERVER_TOKEN) return config.CODEC_SERVER_TOKEN;
  return config.NODE_ENV === 'production' ? undefined : devSecret(config, 'codec-token').toString('base64url');
}

/** The origins allowed to call the endpoint from a browser: CODEC_SERVER_CORS_ORIGINS, else the dev stack's UI. */
export const codecOrigins = (config: Pick<Config, 'CODEC_SERVER_CORS_ORIGINS' | 'TEMPORAL_UI_PORT'>): string[] =>
  config.CODEC_SERVER_CORS_ORIGINS ?? [`http://127.0.0.1:${config.TEMPORAL_UI_PORT}`, `http://localhost:${config.TEMPORAL_UI_PORT}`];
