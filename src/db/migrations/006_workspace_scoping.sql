-- Every tenant-owned table carries workspace_id, so every statement can filter by it. A row's workspace is pinned
-- to its parent's by a composite foreign key: a version cannot sit in another workspace than its journey.

ALTER TABLE journeys ADD CONSTRAINT journeys_id_workspace UNIQUE (id, workspace_id);
ALTER TABLE journey_versions ADD COLUMN workspace_id uuid;
UPDATE journey_versions v SET workspace_id = j.workspace_id FROM journeys j WHERE j.id = v.journey_id;
ALTER TABLE journey_versions ALTER COLUMN workspace_id SET NOT NULL;
ALTER TABLE journey_versions
  ADD CONSTRAINT journey_versions_workspace FOREIGN KEY (workspace_id) REFERENCES workspaces(id) ON DELETE CASCADE,
  ADD CONSTRAINT journey_versions_journey_workspace FOREIGN KEY (journey_id, workspace_id)
    REFERENCES journeys (id, workspace_id) ON DELETE CASCADE;

ALTER TABLE chat_sessions ADD CONSTRAINT chat_sessions_id_workspace UNIQUE (id, workspace_id);
ALTER TABLE chat_messages ADD COLUMN workspace_id uuid;
UPDATE chat_messages m SET workspace_id = s.workspace_id FROM chat_sessions s WHERE s.id = m.session_id;
ALTER TABLE chat_messages ALTER COLUMN workspace_id SET NOT NULL;
ALTER TABLE chat_messages
  ADD CONSTRAINT chat_messages_workspace FOREIGN KEY (workspace_id) REFERENCES workspaces(id) ON DELETE CASCADE,
  ADD CONSTRAINT chat_messages_session_workspace FOREIGN KEY (session_id, workspace_id)
    REFERENCES chat_sessions (id, workspace_id) ON DELETE CASCADE;
