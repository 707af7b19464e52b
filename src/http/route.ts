import type { ParameterizedContext } from 'koa';
import type { z } from 'zod';
import type { AppDeps } from '../deps';
import { unauthorized } from '../errors';
import type { AppState, KeyAuth } from './state';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type AuthKind = 'apiKey' | 'none';

export interface RouteInput<Q, B> {
  query: Q;
  body: B;
  params: Record<string, string>;
  ctx: ParameterizedContext<AppState>;
  deps: AppDeps;
  /** The API key's identity; set on routes with auth 'apiKey'. */
  auth: KeyAuth | undefined;
}

/** The authenticated workspace of an 'apiKey' route. */
export function workspaceOf(input: { auth: KeyAuth | undefined }): string {
  if (!input.auth) throw unauthorized();
  return input.auth.workspaceId;
}

/** What a handler returns: a body (status 200), or withStatus(...) for another status or headers. */
export type RouteResult = unknown;

/** A route carries its schemas: they validate requests, type the handler and generate the OpenAPI document. */
export interface Route<Q = unknown, B = unknown> {
  method: Method;
  path: string;
  summary: string;
  description?: string;
  tag: string;
  auth: AuthKind;
  query?: z.ZodType<Q>;
  body?: z.ZodType<B>;
  responses: Record<number, { description: string; schema?: z.ZodType }>;
  /** Honours an `Idempotency-Key` header: a retry with the same key and request replays the first response. */
  idempotent?: boolean;
  handler: (input: RouteInput<Q, B>) => Promise<RouteResult>;
}

/** Declares a route; the identity function exists for type inference from the schemas. */
export function defineRoute<Q = undefined, B = undefined>(route: Route<Q, B>): Route<Q, B> {
  return route;
}

/** A handler result that carries its own status and headers. */
export class Reply {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {}
}
export const withStatus = (status: number, body: unknown, headers?: Record<string, string>) =>
  new Reply(status, body, headers);
