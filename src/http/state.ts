import type { Logger } from 'pino';
import type { AutomationAuth } from '../auth/automation-auth';

/** Typed ctx.state shared by the api's middleware. */
export interface AppState {
  requestId: string;
  log: Logger;
  /** Set by the apiKey middleware. */
  auth?: KeyAuth;
  /** Set by the automation auth middleware (user JWT or superuser x-key). */
  automation?: AutomationAuth;
}

/** Who an API key speaks for. */
export interface KeyAuth {
  workspaceId: string;
  apiKeyId: string;
  superuser: boolean;
}
