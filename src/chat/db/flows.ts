import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../db/pool';

/** Creates or replaces a chat flow (its graph and its chat-owner persona). */
export async function importFlow(
  db: Queryable,
  workspaceId: string,
  f: { id?: string; name: string; publicChat: boolean; ownerName: string; ownerPicture?: string; allowedOrigins?: string[]; graph: unknown },
): Promise<{ id: string }> {
  const id = f.id ?? randomUUID();
  const row = await db.one<{ id: string }>(
    `INSERT INTO flows (id, workspace_id, name, public_chat, owner_name, owner_picture, graph, allowed_origins)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, public_chat = EXCLUDED.public_chat,
       owner_name = EXCLUDED.owner_name, owner_picture = EXCLUDED.owner_picture, graph = EXCLUDED.graph, allowed_origins = EXCLUDED.allowed_origins, updated_at = now()
     WHERE flows.workspace_id = EXCLUDED.workspace_id
     RETURNING id`,
    [id, workspaceId, f.name, f.publicChat, f.ownerName, f.ownerPicture ?? null, JSON.stringify(f.graph), f.allowedOrigins ?? []],
  );
  if (!row) throw new Error(`flow ${id} belongs to another workspace`);
  return row;
}
