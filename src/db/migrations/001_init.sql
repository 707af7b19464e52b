-- The application's data. Every tenant-owned row carries workspace_id and every query filters by it.

CREATE TABLE workspaces (
  id              uuid PRIMARY KEY,
  name            text NOT NULL,
  default_region  text NOT NULL DEFAULT 'US',      -- ISO 3166 region for phones written without a country code
  timezone        text NOT NULL DEFAULT 'America/New_York',
  created_at      timestamptz NOT NULL DEFAULT now()
);

-- REST keys: only a SHA-256 of the key is kept; the prefix lets a person recognise a key in a list.
CREATE TABLE api_keys (
  id            uuid PRIMARY KEY,
  workspace_id  uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  name          text NOT NULL,
  prefix        text NOT NULL,
  key_hash      bytea NOT NULL UNIQUE,
  superuser     boolean NOT NULL DEFAULT false,  -- an x-key for the automation endpoint
  created_at    timestamptz NOT NULL DEFAULT now(),
  last_used_at  timestamptz,
  revoked_at    timestamptz
);
CREATE INDEX api_keys_workspace ON api_keys (workspace_id);

CREATE TABLE users (
  id             uuid PRIMARY KEY,
  workspace_id   uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  email          text NOT NULL,
  password_hash  text NOT NULL,                  -- scrypt, self-describing (params + salt + hash)
  created_at     timestamptz NOT NULL DEFAULT now(),
  UNIQUE (email)
);
CREATE INDEX users_workspace ON users (workspace_id);

CREATE TABLE phone_groups (
  id            uuid PRIMARY KEY,
  workspace_id  uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  name          text NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX phone_groups_workspace ON phone_groups (workspace_id);

CREATE TABLE phone_numbers (
  id              uuid PRIMARY KEY,
  workspace_id    uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  phone_group_id  uuid NOT NULL REFERENCES phone_groups(id) ON DELETE CASCADE,
  phone           text NOT NULL,                 -- E.164 digits, no '+'
  created_at      timestamptz NOT NULL DEFAULT now(),
  UNIQUE (workspace_id, phone)
);
CREATE INDEX phone_numbers_group ON phone_numbers (phone_group_id);

CREATE TABLE agents (
  id               uuid PRIMARY KEY,
  workspace_id     uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  name             text NOT NULL,
  profile_picture  text,
  transfer_number  text,                         -- E.164 digits
  voice            jsonb NOT NULL DEFAULT '{}'::jsonb,
  phone_group_id   uuid REFERENCES phone_groups(id) ON DELETE SET NULL,
  created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX agents_workspace ON agents (workspace_id);

-- Custom lead fields a workspace defines; record fields beyond the standard ones are kept only when defined here.
CREATE TABLE custom_fields (
  workspace_id  uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  key           text NOT NULL,
  label         text,
  created_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, key)
);

CREATE TABLE leads (
  id             uuid PRIMARY KEY,
  workspace_id   uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  phone          text NOT NULL,                  -- E.164 digits, no '+'
  first_name     text,
  last_name      text,
  email          text,
  company        text,
  timezone       text,
  tags           text[] NOT NULL DEFAULT '{}',
  custom_fields  jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at     timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now(),
  UNIQUE (workspace_id, phone)
);

CREATE TABLE do_not_call (
  workspace_id  uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  phone         text NOT NULL,
  reason        text NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, phone)
);

-- A journey's id is the spec's workflow_id and never changes; its steps live in versions.
CREATE TABLE journeys (
  id            uuid PRIMARY KEY,
  workspace_id  uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  name          text NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX journeys_workspace ON journeys (workspace_id);

CREATE TABLE journey_versions (
  journey_id  uuid NOT NULL REFERENCES journeys(id) ON DELETE CASCADE,
  version     integer NOT NULL,
  steps       jsonb NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (journey_id, version)
);

CREATE TABLE enrollments (
  id               uuid PRIMARY KEY,
  workspace_id     uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  journey_id       uuid NOT NULL REFERENCES journeys(id) ON DELETE CASCADE,
  journey_version  integer NOT NULL,
  lead_id          uuid NOT NULL REFERENCES leads(id) ON DELETE CASCADE,
  workflow_id      text NOT NULL,
  run_id           text,
  status           text NOT NULL CHECK (status IN ('active', 'completed', 'unenrolled', 'failed')),
  current_step     text,
  detail           text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  ended_at         timestamptz
);
CREATE UNIQUE INDEX enrollments_one_active ON enrollments (journey_id, lead_id) WHERE status = 'active';
CREATE INDEX enrollments_lead ON enrollments (workspace_id, lead_id);

CREATE TABLE calls (
  id             text PRIMARY KEY,               -- '<uuid>' for a call, '<uuid>:<n>' for its transfer legs
  workspace_id   uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  parent_id      text REFERENCES calls(id) ON DELETE CASCADE,
  leg            integer NOT NULL DEFAULT 0,
  agent_id       uuid REFERENCES agents(id) ON DELETE SET NULL,
  lead_id        uuid REFERENCES leads(id) ON DELETE SET NULL,
  phone_to       text NOT NULL,
  phone_from     text NOT NULL,
  direction      text NOT NULL DEFAULT 'out',
  status         text NOT NULL DEFAULT 'queued',
  disposition    text,
  answered_by    text,
  transferred    boolean NOT NULL DEFAULT false,
  provider_sid   text,
  request_data   jsonb,
  call_start     timestamptz,
  call_end       timestamptz,
  created_at     timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX calls_workspace ON calls (workspace_id, created_at);
CREATE INDEX calls_parent ON calls (parent_id);

CREATE TABLE flows (
  id             uuid PRIMARY KEY,
  workspace_id   uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  name           text NOT NULL,
  public_chat    boolean NOT NULL DEFAULT false,
  owner_name     text NOT NULL,
  owner_picture  text,
  graph          jsonb NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX flows_workspace ON flows (workspace_id);

CREATE TABLE chat_sessions (
  id            text PRIMARY KEY,                -- 'webchat-session.<uuid>'
  workspace_id  uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  flow_id       uuid NOT NULL REFERENCES flows(id) ON DELETE CASCADE,
  lead_id       uuid REFERENCES leads(id) ON DELETE SET NULL,
  record        jsonb,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE chat_messages (
  id          uuid PRIMARY KEY,
  session_id  text NOT NULL REFERENCES chat_sessions(id) ON DELETE CASCADE,
  seq         integer NOT NULL,
  sender      text NOT NULL CHECK (sender IN ('user', 'bot')),
  content     text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (session_id, seq)
);

-- Credentials are stored encrypted (AES-256-GCM envelope); never in plain text.
CREATE TABLE integration_connections (
  id                uuid PRIMARY KEY,
  workspace_id      uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  user_id           uuid REFERENCES users(id) ON DELETE CASCADE,   -- NULL: the workspace's own connection
  integration       text NOT NULL,
  credentials_enc   bytea NOT NULL,
  expires_at        timestamptz,
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX integration_connections_owner
  ON integration_connections (workspace_id, integration, COALESCE(user_id, '00000000-0000-0000-0000-000000000000'::uuid));

CREATE TABLE automation_runs (
  id               uuid PRIMARY KEY,             -- the response's requestId
  workspace_id     uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  user_id          uuid REFERENCES users(id) ON DELETE SET NULL,
  automation_type  text NOT NULL,
  action           text NOT NULL,
  node_id          text,
  success          boolean,
  error            text,
  data             jsonb,
  duration_ms      integer,
  created_at       timestamptz NOT NULL DEFAULT now(),
  finished_at      timestamptz
);
CREATE INDEX automation_runs_workspace ON automation_runs (workspace_id, created_at);

-- Replays of POST/PATCH responses by Idempotency-Key, per workspace.
CREATE TABLE idempotency_keys (
  workspace_id   uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  key            text NOT NULL,
  request_hash   bytea NOT NULL,
  status_code    integer,
  response_body  jsonb,
  created_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, key)
);
