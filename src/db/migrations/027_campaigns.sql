-- Campaigns (issue 26): one row per campaign; its audience snapshot, one row per lead, is what the campaign's run
-- works through. The run (workflow campaign:<id>) owns every change after creation except the status the
-- pause/resume/cancel routes set (the run sets the same one when their signal reaches it).
CREATE TABLE campaigns (
  id            uuid PRIMARY KEY,
  workspace_id  uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  name          text NOT NULL,
  agent_id      uuid NOT NULL,
  -- The request as accepted: from, audience, window, max_concurrent, calls_per_minute, retries, retry_on, start_at.
  spec          jsonb NOT NULL,
  status        text NOT NULL CHECK (status IN ('scheduled', 'running', 'paused', 'completed', 'canceled')),
  -- How many leads the audience held when the run took its snapshot (null until then).
  audience_size integer,
  created_at    timestamptz NOT NULL DEFAULT now(),
  started_at    timestamptz,
  finished_at   timestamptz
);
CREATE INDEX campaigns_workspace ON campaigns (workspace_id, created_at, id);

-- A lead of a campaign: pending (due at next_at), waiting (outside its window until next_at), dialing, done.
-- A done lead has its outcome: a call outcome, or skipped (reason do_not_call, invalid, deleted).
CREATE TABLE campaign_leads (
  campaign_id  uuid NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
  workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  position     integer NOT NULL,
  lead_id      uuid NOT NULL,
  state        text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'waiting', 'dialing', 'done')),
  outcome      text,
  reason       text,
  attempts     integer NOT NULL DEFAULT 0,
  next_at      timestamptz NOT NULL DEFAULT '-infinity',
  PRIMARY KEY (campaign_id, position),
  UNIQUE (campaign_id, lead_id)
);
-- The run's next leads: the due ones in (next_at, position) order, without walking the finished ones.
CREATE INDEX campaign_leads_due ON campaign_leads (campaign_id, next_at, position) WHERE state IN ('pending', 'waiting');

-- Every call a campaign placed (its id chosen by the run before the start, so a retried record is a no-op).
CREATE TABLE campaign_calls (
  call_id      uuid PRIMARY KEY,
  campaign_id  uuid NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
  workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  position     integer NOT NULL,
  attempt      integer NOT NULL,
  outcome      text,
  ended_reason text,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX campaign_calls_lead ON campaign_calls (campaign_id, position, attempt);
