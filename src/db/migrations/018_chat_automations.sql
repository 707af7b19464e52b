-- Web chat automation nodes: each action a conversation ran (its automation run, success or failure), once per run.
CREATE TABLE chat_automations (
  request_id    uuid PRIMARY KEY,
  session_id    text NOT NULL,
  workspace_id  uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  node_id       text NOT NULL,
  success       boolean NOT NULL,
  detail        text NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (session_id, workspace_id) REFERENCES chat_sessions (id, workspace_id) ON DELETE CASCADE
);
CREATE INDEX chat_automations_session ON chat_automations (session_id, created_at);
