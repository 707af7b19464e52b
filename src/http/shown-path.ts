import type { ParameterizedContext } from 'koa';
import { CODEC_TOKEN_ROUTE } from '../temporal/codec-endpoint';

/**
 * Route templates one of whose path segments is a secret (a `:param`): the codec endpoint's token, for a UI that
 * sends no header. A request under one of them is shown with the template's `:param` in place of that segment even
 * when no route answered it (a misspelt operation, a wrong method), so the secret is never logged or echoed.
 */
const SECRET_SEGMENT_ROUTES: readonly string[] = [CODEC_TOKEN_ROUTE];

const templates = SECRET_SEGMENT_ROUTES.map((t) => t.split('/'));

interface MatchedLayer {
  path: unknown;
  methods: string[];
}

/**
 * The request's path as the api may log it or quote it in an answer: the matched route's template (ids and secrets
 * as `:param`), else the template of a route the path matched with another method (a 405), else the raw path with
 * every secret segment replaced. The one rule for every request line, 404 and 405.
 */
export function shownPath(ctx: Pick<ParameterizedContext, 'path'> & { _matchedRoute?: unknown; matched?: unknown }): string {
  if (typeof ctx._matchedRoute === 'string') return ctx._matchedRoute;
  const layer = ((ctx.matched ?? []) as MatchedLayer[]).find((l) => l.methods.length > 0 && typeof l.path === 'string');
  if (layer) return layer.path as string;
  return maskSecretSegments(ctx.path);
}

/** The raw path with the segments that sit where a secret-segment route has its `:param` replaced by that `:param`. */
function maskSecretSegments(path: string): string {
  const segments = path.split('/');
  for (const template of templates) {
    if (segments.length < template.length) continue;
    // A template's literal segments compared as the router does (case-insensitively), its parameters masked.
    if (!template.every((part, i) => part.startsWith(':') || part.toLowerCase() === segments[i]!.toLowerCase())) continue;
    template.forEach((part, i) => {
      if (part.startsWith(':')) segments[i] = part;
    });
  }
  return segments.join('/');
}
