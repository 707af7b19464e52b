-- Until sessions could be created with the workspace's API key, every chat session was created without credentials
-- and yet bound to the lead matched by the phone the visitor gave (issue 22, finding 1). None of those bindings was
-- verified: they are undone, and the phone is kept on the session as what the visitor gave.
UPDATE chat_sessions s
SET lead_id = NULL, record = COALESCE(s.record, '{}'::jsonb) || jsonb_build_object('phone', l.phone)
FROM leads l
WHERE l.id = s.lead_id;
