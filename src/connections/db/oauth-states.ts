import type { Queryable } from '../../db/pool';

/** A flow in progress as oauth_states holds it (the state itself is never stored, only its hash). */
export interface OAuthStateRow {
  workspace_id: string;
  user_id: string | null;
  integration: string;
  verifier_enc: Buffer;
  redirect_uri: string;
  return_url: string | null;
  expires_at: Date;
}

/** A flow as the callback takes it: with the hash of the browser secret it was bound to (null: never opened). */
export interface ConsumedOAuthState extends OAuthStateRow {
  binding_hash: Buffer | null;
}

/** Records a flow the caller started (no browser bound yet: the first to open the connect link is). */
export async function insertOAuthState(db: Queryable, s: OAuthStateRow & { stateHash: Buffer }): Promise<void> {
  await db.query(
    `INSERT INTO oauth_states (state_hash, workspace_id, user_id, integration, verifier_enc, redirect_uri, return_url, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [s.stateHash, s.workspace_id, s.user_id, s.integration, s.verifier_enc, s.redirect_uri, s.return_url, s.expires_at],
  );
}

/**
 * Binds an unexpired flow no browser has opened yet to the browser secret's hash (once: of two browsers racing, one
 * wins); undefined when the state is unknown, expired or already bound.
 */
export async function bindOAuthState(db: Queryable, stateHash: Buffer, bindingHash: Buffer): Promise<OAuthStateRow | undefined> {
  return db.one<OAuthStateRow & Record<string, unknown>>(
    `UPDATE oauth_states SET binding_hash = $2 WHERE state_hash = $1 AND binding_hash IS NULL AND expires_at > now()
     RETURNING workspace_id, user_id, integration, verifier_enc, redirect_uri, return_url, expires_at`,
    [stateHash, bindingHash],
  );
}

/** Takes the flow of a state hash out of the table (single use): undefined when there is none, or it expired. */
export async function consumeOAuthState(db: Queryable, stateHash: Buffer): Promise<ConsumedOAuthState | undefined> {
  const row = await db.one<ConsumedOAuthState & Record<string, unknown>>(
    `DELETE FROM oauth_states WHERE state_hash = $1
     RETURNING workspace_id, user_id, integration, verifier_enc, redirect_uri, return_url, expires_at, binding_hash`,
    [stateHash],
  );
  return row && row.expires_at.getTime() > Date.now() ? row : undefined;
}

/** Forgets flows that expired unused (called when a flow starts, so the table stays small). */
export async function deleteExpiredOAuthStates(db: Queryable): Promise<void> {
  await db.query('DELETE FROM oauth_states WHERE expires_at < now()');
}
