-- Web chat: which sites may open a flow's chat, and where each conversation stands in its flow (for resumes).
ALTER TABLE flows ADD COLUMN allowed_origins text[] NOT NULL DEFAULT '{}';
ALTER TABLE chat_sessions ADD COLUMN state jsonb;
