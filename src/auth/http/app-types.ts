import type { ApiKeyScope } from '../../workspaces/db/api-keys';
import type { AutomationAuth, NocodeAuth } from '../callers';
import type { JwtAuthority } from '../jwt';
import type { LoginLimits } from '../login-limits';

// What authentication adds to the toolkit's request state and route deps (module augmentation, as Koa's DefaultState).

declare module '../../http/state' {
  interface KeyAuth {
    /** What the key may drive (migration 023). */
    scopes: readonly ApiKeyScope[];
  }
  interface AppState {
    /** Set by the automation auth middleware (user JWT or superuser x-key). */
    automation?: AutomationAuth;
    /** Set by the no-code auth middleware when a Bearer API key or user JWT came (body credentials are read by the route). */
    nocode?: NocodeAuth;
  }
}

declare module '../../http/deps' {
  interface AppDeps {
    /** User JWTs and login limits, on processes that serve login (createApp provides them). */
    auth?: { jwt: JwtAuthority; loginLimits: LoginLimits };
  }
}
