-- The voice runtime. An agent's conversation settings (NULL: the runtime's default); agents.voice (jsonb) already
-- holds {engine, voice_id}.
ALTER TABLE agents
  ADD COLUMN prompt            text,
  ADD COLUMN first_message     text,
  ADD COLUMN language          text,
  ADD COLUMN stt               jsonb,
  ADD COLUMN llm               jsonb,
  ADD COLUMN interruptible     boolean,
  ADD COLUMN silence_timeout_s integer,
  ADD COLUMN max_duration_s    integer,
  ADD COLUMN end_call_phrases  text[];

-- The media stream that holds a call's conversation: one row per call, taken by the stream that opened with an unused
-- credential (nonce). A later stream takes it over only with a resume credential (Twilio followed our <Redirect>, so
-- the earlier stream is over) and only while the agent has not ended the call on purpose (ended_reason).
CREATE TABLE call_streams (
  call_id       text PRIMARY KEY REFERENCES calls(id) ON DELETE CASCADE,
  workspace_id  uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  stream_sid    text NOT NULL,
  nonce         text NOT NULL,
  streams       integer NOT NULL DEFAULT 1,
  opened_at     timestamptz NOT NULL DEFAULT now(),
  closed_at     timestamptz,
  ended_reason  text
);

-- Every turn of a call's conversation as it happens, by (call, index): a resumed stream rewrites a turn, never doubles it.
CREATE TABLE call_turns (
  call_id       text NOT NULL REFERENCES calls(id) ON DELETE CASCADE,
  turn_index    integer NOT NULL,
  workspace_id  uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  speaker       text NOT NULL CHECK (speaker IN ('agent', 'callee')),
  text          text NOT NULL,
  start_ms      integer NOT NULL,
  end_ms        integer NOT NULL,
  interrupted   boolean NOT NULL DEFAULT false,
  updated_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (call_id, turn_index)
);
