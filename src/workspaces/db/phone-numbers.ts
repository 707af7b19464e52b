// The workspace's phone numbers (caller ids) as GET/POST/PATCH /v1/phone-numbers and the CLI manage them.
import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../db/pool';

/** A number with the agent it belongs to (the oldest agent of its phone group); position as in every listing. */
export interface PhoneNumberRow {
  id: string;
  phone: string;
  phone_group_id: string | null;
  agent_id: string | null;
  created_at: Date;
  position: string;
}

const ROW = `p.id, p.phone, p.phone_group_id, p.created_at, ag.id AS agent_id,
  to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS position
  FROM phone_numbers p
  LEFT JOIN LATERAL (SELECT a.id FROM agents a WHERE a.workspace_id = p.workspace_id AND a.phone_group_id = p.phone_group_id
                     ORDER BY a.created_at, a.id LIMIT 1) ag ON true`;

/** One page of the workspace's numbers, newest first (created_at, id), after the given position. */
export function listPhoneNumbers(db: Queryable, workspaceId: string, limit: number, after?: { createdAt: string; id: string }): Promise<PhoneNumberRow[]> {
  const params: unknown[] = [workspaceId, limit];
  const keyset = after ? `AND (p.created_at, p.id) < ($${params.push(after.createdAt)}::timestamptz, $${params.push(after.id)}::uuid)` : '';
  return db.query<PhoneNumberRow>(`SELECT ${ROW} WHERE p.workspace_id = $1 ${keyset} ORDER BY p.created_at DESC, p.id DESC LIMIT $2`, params);
}

/** The workspace's number with this id or these digits, or undefined. */
export function findPhoneNumber(db: Queryable, workspaceId: string, by: { id: string } | { phone: string }): Promise<PhoneNumberRow | undefined> {
  return 'id' in by
    ? db.one<PhoneNumberRow>(`SELECT ${ROW} WHERE p.workspace_id = $1 AND p.id = $2`, [workspaceId, by.id])
    : db.one<PhoneNumberRow>(`SELECT ${ROW} WHERE p.workspace_id = $1 AND p.phone = $2`, [workspaceId, by.phone]);
}

/**
 * Serialises every addition of these digits until the transaction ends (in a sorted order, so two additions never
 * deadlock): with it, "is the number another workspace's?" and the insert that follows are one step.
 */
export async function lockPhones(db: Queryable, phones: string[]): Promise<void> {
  for (const phone of [...new Set(phones)].sort()) await db.query("SELECT pg_advisory_xact_lock(hashtextextended('phone_number:' || $1, 0))", [phone]);
}

/** Which of these digits another workspace holds. */
export async function phonesOfOtherWorkspaces(db: Queryable, workspaceId: string, phones: string[]): Promise<string[]> {
  const rows = await db.query<{ phone: string }>('SELECT DISTINCT phone FROM phone_numbers WHERE phone = ANY($2::text[]) AND workspace_id <> $1', [
    workspaceId,
    phones,
  ]);
  return rows.map((r) => r.phone);
}

/** Adds the digits to the workspace in the given group (null: no agent); returns the new number's id. */
export async function insertPhoneNumber(db: Queryable, workspaceId: string, phone: string, phoneGroupId: string | null): Promise<string> {
  const id = randomUUID();
  await db.query('INSERT INTO phone_numbers (id, workspace_id, phone_group_id, phone) VALUES ($1, $2, $3, $4)', [id, workspaceId, phoneGroupId, phone]);
  return id;
}

/** Puts the workspace's numbers with these digits into the group (null: detached from every agent). */
export async function movePhones(db: Queryable, workspaceId: string, phones: string[], phoneGroupId: string | null): Promise<void> {
  await db.query('UPDATE phone_numbers SET phone_group_id = $3 WHERE workspace_id = $1 AND phone = ANY($2::text[])', [workspaceId, phones, phoneGroupId]);
}

/** Detaches the group's numbers other than these digits. */
export async function detachOtherPhones(db: Queryable, workspaceId: string, phoneGroupId: string, keep: string[]): Promise<void> {
  await db.query('UPDATE phone_numbers SET phone_group_id = NULL WHERE workspace_id = $1 AND phone_group_id = $2 AND NOT (phone = ANY($3::text[]))', [
    workspaceId,
    phoneGroupId,
    keep,
  ]);
}

/** The workspace's numbers among these digits. */
export async function phonesOfWorkspace(db: Queryable, workspaceId: string, phones: string[]): Promise<string[]> {
  const rows = await db.query<{ phone: string }>('SELECT phone FROM phone_numbers WHERE workspace_id = $1 AND phone = ANY($2::text[])', [workspaceId, phones]);
  return rows.map((r) => r.phone);
}
