-- Rate-limit counters shared by every api process: one fixed-window count per bucket (an API key or a hashed client
-- address). UNLOGGED: counters are worth losing on a crash, and skipping the WAL keeps their upserts cheap.
CREATE UNLOGGED TABLE rate_limits (
  bucket        text PRIMARY KEY,
  window_start  bigint NOT NULL,        -- ms since the epoch, a multiple of the window length
  expires_at    timestamptz NOT NULL,   -- end of the window; rows past it are deleted
  hits          integer NOT NULL
);
CREATE INDEX rate_limits_expires ON rate_limits (expires_at);
