import { publicUrls, type Config } from '../../core/config';
import type { FlowRow } from '../db/chat';

/**
 * A flow with allowed origins accepts browsers only from those (and from this service's own pages: the demo);
 * requests without an Origin (servers, native apps) are not browsers and pass. No list: any origin.
 */
export function originAllowed(flow: Pick<FlowRow, 'allowed_origins'>, origin: string | undefined, config: Config): boolean {
  if (!flow.allowed_origins.length || origin === undefined) return true;
  const own = new URL(publicUrls(config).hooks_url).origin;
  return origin === own || flow.allowed_origins.includes(origin);
}
