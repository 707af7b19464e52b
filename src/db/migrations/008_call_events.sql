-- Call event subscriptions: URLs a workspace wants call.started / call.completed POSTed to.
CREATE TABLE call_subscriptions (
  id             uuid PRIMARY KEY,
  workspace_id   uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  url            text NOT NULL,
  events         text[] NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX call_subscriptions_workspace ON call_subscriptions (workspace_id, created_at, id);

-- One row per (event, subscription) that is settled: delivered, or refused for good. A retried publish skips these,
-- so a subscriber that already got an event never gets it again from us.
CREATE TABLE call_event_deliveries (
  event_id        text NOT NULL,
  subscription_id uuid NOT NULL REFERENCES call_subscriptions(id) ON DELETE CASCADE,
  workspace_id    uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  outcome         text NOT NULL,
  http_status     integer,
  settled_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (event_id, subscription_id)
);
