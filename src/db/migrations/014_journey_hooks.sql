-- REST hooks: URLs a workspace (a no-code platform acting for it) subscribed to a journey's trigger step.
-- One row per (journey, step, url): subscribing twice answers the same hook id.
CREATE TABLE journey_hooks (
  id             uuid PRIMARY KEY,
  workspace_id   uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  journey_id     uuid NOT NULL REFERENCES journeys(id) ON DELETE CASCADE,
  step_id        text NOT NULL,
  url            text NOT NULL,
  platform       text NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now(),
  UNIQUE (workspace_id, journey_id, step_id, url)
);
-- Listing newest first by (created_at, id), and unsubscribing by url.
CREATE INDEX journey_hooks_workspace_created ON journey_hooks (workspace_id, created_at, id);
CREATE INDEX journey_hooks_workspace_url ON journey_hooks (workspace_id, url);

-- One row per (trigger event, hook) that is settled: delivered, refused (4xx, blocked address) or failed for good
-- (retries used up). A retried delivery skips these, so a subscriber never gets the same event twice from us.
CREATE TABLE journey_hook_deliveries (
  event_id      text NOT NULL,
  hook_id       uuid NOT NULL REFERENCES journey_hooks(id) ON DELETE CASCADE,
  workspace_id  uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  outcome       text NOT NULL,
  http_status   integer,
  detail        text,
  settled_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (event_id, hook_id)
);
-- A hook's latest delivery (GET /v1/hooks shows it).
CREATE INDEX journey_hook_deliveries_hook ON journey_hook_deliveries (hook_id, settled_at DESC);

-- A trigger step's data as it was when the enrollment reached the step: every hook and every retry gets this body.
CREATE TABLE journey_trigger_events (
  event_id      text PRIMARY KEY,
  workspace_id  uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  journey_id    uuid NOT NULL REFERENCES journeys(id) ON DELETE CASCADE,
  step_id       text NOT NULL,
  body          text NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now()
);
