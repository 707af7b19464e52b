-- Concurrent-call slots as one counter per workspace, taken by a conditional upsert in the same statement that records
-- an api call (no workspace row lock held across round trips). A call holds a slot while its slot_taken_at is set;
-- clearing it and decrementing the counter happen in one statement, so a slot is released at most once, and the
-- counter always equals the number of the workspace's calls with slot_taken_at set.
ALTER TABLE calls ADD COLUMN slot_taken_at timestamptz;
CREATE INDEX calls_slot_taken ON calls (workspace_id, slot_taken_at) WHERE slot_taken_at IS NOT NULL;

CREATE TABLE call_slot_counts (
  workspace_id  uuid PRIMARY KEY REFERENCES workspaces(id) ON DELETE CASCADE,
  used          integer NOT NULL DEFAULT 0 CHECK (used >= 0)
);

-- Slots held when this runs move over to their calls (a slot of a call without a row, never written by the code, is
-- dropped).
UPDATE calls c SET slot_taken_at = s.acquired_at FROM call_slots s WHERE s.call_id = c.id;
INSERT INTO call_slot_counts (workspace_id, used)
  SELECT workspace_id, count(*) FROM calls WHERE slot_taken_at IS NOT NULL GROUP BY workspace_id;
DROP TABLE call_slots;
