import type { Logger } from 'pino';

/** Typed ctx.state shared by the api's middleware. */
export interface AppState {
  requestId: string;
  log: Logger;
  /** Set by the apiKey middleware. */
  auth?: KeyAuth;
}

/** Who an API key speaks for. */
export interface KeyAuth {
  workspaceId: string;
  apiKeyId: string;
  superuser: boolean;
}
