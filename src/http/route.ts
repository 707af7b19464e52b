import type { ParameterizedContext } from 'koa';
import type { z } from 'zod';
import type { AppDeps } from './deps';
import { forbidden, unauthorized } from './api-error';
import type { AppState, KeyAuth } from './state';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
/**
 * apiKey: REST `Authorization: Bearer <API key>`; automation: a user JWT or a superuser x-key (spec section 5);
 * nocode: a Bearer API key or user JWT, else `{user, password}` in the body (no-code platforms' option lists and hooks).
 */
/** optionalApiKey: unauthenticated, or with an API key that must then be valid (the route decides what it grants). */
/** keyOrUser: `Authorization: Bearer <API key or user JWT>`, required (the workspace's or the user's own resources). */
type AuthKind = 'apiKey' | 'optionalApiKey' | 'automation' | 'nocode' | 'keyOrUser' | 'none';

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

/** The authenticated workspace of a route only a superuser key may call (403 for an ordinary key). */
export function superuserWorkspaceOf(input: { auth: KeyAuth | undefined }): string {
  const workspaceId = workspaceOf(input);
  if (!input.auth!.superuser) throw forbidden('Forbidden: this operation needs a superuser API key');
  return workspaceId;
}

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
  /** The body may be left out (every field optional: e.g. credentials that a Bearer token replaces); documented so. */
  bodyOptional?: boolean;
  /** contentType: a non-JSON answer (a script, a page), documented as a string of that media type. */
  responses: Record<number, { description: string; schema?: z.ZodType; contentType?: string }>;
  /** A valid request for the document: path and query parameters and body (also the fuzzer's example phase). */
  example?: { params?: Record<string, string>; query?: Record<string, unknown>; body?: unknown };
  /** OpenAPI links from the 200 response to other operations, by name (for clients and stateful fuzzing). */
  links?: Record<string, { operationId: string; parameters?: Record<string, string>; requestBody?: unknown; description?: string }>;
  /**
   * A body the handler streams itself from ctx.req (never buffered by the api): its media types for the document, and
   * the limit it enforces (413 beyond): limitBytes, which every reader of the body applies (the handler, and an
   * Idempotency-Key replay that reads the body through to compare it). Such a route has no `body` schema.
   */
  rawBody?: {
    contentTypes: Record<string, { schema: Record<string, unknown>; example?: string }>;
    limitDescription: string;
    limitBytes: (config: AppDeps['config']) => number;
  };
  /** The success status (default 200); its entry in responses documents it. */
  successStatus?: number;
  /** Honours an `Idempotency-Key` header: a retry with the same key and request replays the first response. */
  idempotent?: boolean;
  /**
   * The success answer names the durable run the request started or signalled (Switchboard-Workflow-Id and Link, set by
   * src/http/run-link.ts); `when`: it does only in that case (the document says so and leaves the headers optional).
   */
  namesRun?: { when?: string };
  /** The body failures answer with, when not the spec's {status:"failed",message} (the automation envelope). */
  failure?: z.ZodType;
  /** Returns the 200 body; failures are thrown as ApiError. */
  handler: (input: RouteInput<Q, B>) => Promise<unknown>;
}

/** Declares a route; the identity function exists for type inference from the schemas. */
export function defineRoute<Q = undefined, B = undefined>(route: Route<Q, B>): Route<Q, B> {
  return route;
}
