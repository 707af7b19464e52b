-- GET /v1/calls: a workspace's calls (parents only) newest first, by keyset (created_at, id), optionally by agent,
-- lead or status. Partial indexes: legs are never listed on their own.
CREATE INDEX calls_list ON calls (workspace_id, created_at DESC, id DESC) WHERE parent_id IS NULL;
CREATE INDEX calls_list_agent ON calls (workspace_id, agent_id, created_at DESC, id DESC) WHERE parent_id IS NULL;
CREATE INDEX calls_list_lead ON calls (workspace_id, lead_id, created_at DESC, id DESC) WHERE parent_id IS NULL;
CREATE INDEX calls_list_status ON calls (workspace_id, status, created_at DESC, id DESC) WHERE parent_id IS NULL;
