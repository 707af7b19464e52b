// Who a request speaks for, as the auth middleware sets it on ctx.state: plain types (no imports), so domain code
// and src/http/state.ts read them without reaching the middleware.

/** Who a request to the automation endpoint speaks for (spec section 5). */
export interface AutomationAuth {
  workspaceId: string;
  /** The JWT's user; null in superuser mode. */
  userId: string | null;
  /** x-key with the workspace's API key: any node, user restrictions and OAuth bypassed, the workspace's connections used. */
  superuser: boolean;
  /** Integrations (automationType) the user may run; null: all. */
  allowedIntegrations: string[] | null;
}

/** Who a no-code platform's request speaks for. */
export interface NocodeAuth {
  workspaceId: string;
  /** The user of a JWT or of body credentials; null for an API key. */
  userId: string | null;
}
