import type { Logger } from 'pino';

/**
 * Typed ctx.state shared by the api's middleware. The toolkit names what every request has; authentication adds what
 * its middleware sets by module augmentation (src/auth/http/app-types.ts).
 */
export interface AppState {
  requestId: string;
  log: Logger;
  /** Set by the apiKey middleware. */
  auth?: KeyAuth;
  /** SHA-256 of a streamed body (a route with rawBody) once the route has read all of it: its Idempotency-Key hash. */
  bodyDigest?: Buffer;
  /** The run the answer names (src/http/run-link.ts), stored with an Idempotency-Key's response. */
  workflowId?: string;
}

/** Who an API key speaks for (its scopes: src/auth/http/app-types.ts). */
export interface KeyAuth {
  workspaceId: string;
  apiKeyId: string;
  superuser: boolean;
}
