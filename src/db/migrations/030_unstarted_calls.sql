-- Api calls written holding a slot whose workflow never started (the api died between the two): the reclaim schedule
-- (reclaimUnstartedCalls) reads them oldest first through this index, never scanning every call.
CREATE INDEX calls_unstarted ON calls (created_at)
  WHERE slot_taken_at IS NOT NULL AND provider_sid IS NULL AND parent_id IS NULL AND status = 'queued';
