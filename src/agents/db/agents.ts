import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../db/pool';

export interface AgentRow {
  id: string;
  workspace_id: string;
  name: string;
  profile_picture: string | null;
  transfer_number: string | null;
  phone_group_id: string | null;
}

/** Creates a phone group with its (already normalised) numbers. */
export async function createPhoneGroup(db: Queryable, workspaceId: string, g: { name: string; numbers: string[] }): Promise<{ id: string; numbers: string[] }> {
  const id = randomUUID();
  await db.query('INSERT INTO phone_groups (id, workspace_id, name) VALUES ($1, $2, $3)', [id, workspaceId, g.name]);
  for (const phone of g.numbers) {
    await db.query('INSERT INTO phone_numbers (id, workspace_id, phone_group_id, phone) VALUES ($1, $2, $3, $4)', [randomUUID(), workspaceId, id, phone]);
  }
  return { id, numbers: g.numbers };
}

export async function createAgent(
  db: Queryable,
  workspaceId: string,
  a: { name: string; profilePicture?: string; transferNumber?: string; phoneGroupId?: string },
): Promise<AgentRow> {
  const row = await db.one<AgentRow>(
    `INSERT INTO agents (id, workspace_id, name, profile_picture, transfer_number, phone_group_id)
     VALUES ($1, $2, $3, $4, $5, $6)
     RETURNING id, workspace_id, name, profile_picture, transfer_number, phone_group_id`,
    [randomUUID(), workspaceId, a.name, a.profilePicture ?? null, a.transferNumber ?? null, a.phoneGroupId ?? null],
  );
  return row!;
}
