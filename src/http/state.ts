import type { Logger } from 'pino';
import type { ApiKeyScope } from '../workspaces/db/api-keys';
import type { AutomationAuth, NocodeAuth } from '../auth/callers';

/** Typed ctx.state shared by the api's middleware. */
export interface AppState {
  requestId: string;
  log: Logger;
  /** Set by the apiKey middleware. */
  auth?: KeyAuth;
  /** Set by the automation auth middleware (user JWT or superuser x-key). */
  automation?: AutomationAuth;
  /** Set by the no-code auth middleware when a Bearer API key or user JWT came (body credentials are read by the route). */
  nocode?: NocodeAuth;
  /** SHA-256 of a streamed body (a route with rawBody) once the route has read all of it: its Idempotency-Key hash. */
  bodyDigest?: Buffer;
  /** The run the answer names (src/http/run-link.ts), stored with an Idempotency-Key's response. */
  workflowId?: string;
}

/** Who an API key speaks for. */
export interface KeyAuth {
  workspaceId: string;
  apiKeyId: string;
  superuser: boolean;
  /** What the key may drive (migration 023). */
  scopes: readonly ApiKeyScope[];
}
