-- Tries of an automation run known to have changed nothing at the vendor (a refused connection, a 429 or 503, nothing
-- sent yet): a run of an action that is not idempotent is sent again only when every earlier try is one of them.
ALTER TABLE automation_runs ADD COLUMN unsent_tries integer NOT NULL DEFAULT 0;
