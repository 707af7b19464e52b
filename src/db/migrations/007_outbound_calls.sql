-- Outbound calls: what a call ended as, its conversation, the caps and windows that govern placing it.
ALTER TABLE calls
  ADD COLUMN ended_reason   text,
  ADD COLUMN duration       integer,
  ADD COLUMN transcript     text,
  ADD COLUMN recording_url  text,
  ADD COLUMN outcome        text,
  ADD COLUMN sequence       integer NOT NULL DEFAULT -1;  -- the provider's last applied event of this call or leg
CREATE UNIQUE INDEX calls_provider_sid ON calls (provider_sid) WHERE provider_sid IS NOT NULL;

-- Per-agent call window ({"start":"HH:MM","end":"HH:MM","days":[…]}); null: 08:00–21:00 every day.
ALTER TABLE agents ADD COLUMN call_window jsonb;

-- Calls placed at once per workspace; a row in call_slots is one call holding a slot until it ends.
ALTER TABLE workspaces ADD COLUMN max_concurrent_calls integer NOT NULL DEFAULT 10 CHECK (max_concurrent_calls >= 0);
CREATE TABLE call_slots (
  call_id       text PRIMARY KEY,
  workspace_id  uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  acquired_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX call_slots_workspace ON call_slots (workspace_id);

-- "Least recently used" caller id within a phone group.
ALTER TABLE phone_numbers ADD COLUMN last_used_at timestamptz;
