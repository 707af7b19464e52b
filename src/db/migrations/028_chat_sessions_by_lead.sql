-- Conversations listed per workspace, per lead and per flow, newest first (GET /v1/chat/sessions).
CREATE INDEX chat_sessions_listing ON chat_sessions (workspace_id, lead_id, created_at DESC, id DESC);
CREATE INDEX chat_sessions_by_workspace ON chat_sessions (workspace_id, created_at DESC, id DESC);
