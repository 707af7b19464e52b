-- Places api calls (POST /v1/agent) in one round trip and one commit: each call is judged and written by one statement,
-- in order, so that each sees the slots the earlier ones took (the same rules as one call alone; see
-- src/db/repos/calls-place.ts). Per call i: $ids[i] the new call's id, the workspace, the agent, the destination, the given
-- caller id (normalised; NULL: choose one from the agent's phone group), request_data, and what the api judged the
-- call's window on: the workspace's region and zone, the agent's window, the lead's zone, and whether it was open.
-- A call is written (holding a slot, its caller id marked used) only when it has a caller id, is not on the
-- do-not-call list, the facts it was judged on are the ones read, the window was open and a slot is free. One row per
-- call whose agent is the workspace's: what was read, `allowed` (every rule but the cap held) and `placed`.
CREATE FUNCTION place_api_calls(
  p_ids text[], p_workspaces uuid[], p_agents uuid[], p_tos text[], p_froms text[], p_request_data jsonb[],
  p_regions text[], p_zones text[], p_windows jsonb[], p_lead_zones text[], p_open boolean[])
RETURNS TABLE (
  n integer, id uuid, transfer_number text, phone_group_id uuid, call_window jsonb, default_region text,
  "workspaceTimezone" text, "maxConcurrentCalls" integer, "leadId" uuid, "leadTimezone" text, "doNotCall" boolean,
  "chosenFrom" text, allowed boolean, placed boolean)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
BEGIN
  FOR i IN 1 .. coalesce(array_length(p_ids, 1), 0) LOOP
    RETURN QUERY
    WITH f AS (
      SELECT a.id, a.transfer_number, a.phone_group_id, a.call_window, w.default_region, w.timezone AS zone,
             w.max_concurrent_calls AS cap, l.id AS lead_id, l.timezone AS lead_zone,
             EXISTS (SELECT 1 FROM do_not_call d WHERE d.workspace_id = p_workspaces[i] AND d.phone = p_tos[i]) AS dnc,
             CASE WHEN p_froms[i] IS NOT NULL
               THEN (SELECT p.phone FROM phone_numbers p WHERE p.workspace_id = p_workspaces[i] AND p.phone = p_froms[i])
               -- The least recently used number with the destination's NANP area code, else the least recently used.
               ELSE (SELECT p.phone FROM phone_numbers p WHERE p.workspace_id = p_workspaces[i] AND p.phone_group_id = a.phone_group_id
                     ORDER BY (p.phone ~ '^1[0-9]{10}$' AND p_tos[i] ~ '^1[0-9]{10}$' AND substr(p.phone, 2, 3) = substr(p_tos[i], 2, 3)) DESC,
                              p.last_used_at ASC NULLS FIRST, p.phone
                     LIMIT 1)
             END AS chosen
      FROM agents a JOIN workspaces w ON w.id = a.workspace_id
      LEFT JOIN leads l ON l.workspace_id = w.id AND l.phone = p_tos[i]
      WHERE a.workspace_id = p_workspaces[i] AND a.id = p_agents[i]),
    ok AS (
      SELECT 1 FROM f WHERE p_open[i] AND f.chosen IS NOT NULL AND NOT f.dnc AND f.default_region = p_regions[i]
        AND f.zone = p_zones[i] AND f.call_window IS NOT DISTINCT FROM p_windows[i] AND f.lead_zone IS NOT DISTINCT FROM p_lead_zones[i]),
    -- The counter row's lock is held until the batch commits; callers send a batch in workspace order.
    slot AS (
      INSERT INTO call_slot_counts AS c (workspace_id, used)
      SELECT w.id, 1 FROM workspaces w WHERE w.id = p_workspaces[i] AND w.max_concurrent_calls > 0 AND EXISTS (SELECT 1 FROM ok)
      ON CONFLICT (workspace_id) DO UPDATE SET used = c.used + 1
        WHERE c.used < (SELECT max_concurrent_calls FROM workspaces WHERE id = p_workspaces[i])
      RETURNING 1),
    placed_call AS (
      INSERT INTO calls (id, workspace_id, agent_id, lead_id, phone_to, phone_from, request_data, slot_taken_at)
      SELECT p_ids[i], p_workspaces[i], f.id, f.lead_id, p_tos[i], f.chosen, p_request_data[i], now() FROM f WHERE EXISTS (SELECT 1 FROM slot)),
    touched AS (
      UPDATE phone_numbers p SET last_used_at = now() FROM f
      WHERE p.workspace_id = p_workspaces[i] AND p.phone = f.chosen AND EXISTS (SELECT 1 FROM slot))
    SELECT i, f.id, f.transfer_number, f.phone_group_id, f.call_window, f.default_region, f.zone, f.cap, f.lead_id, f.lead_zone,
           f.dnc, f.chosen, EXISTS (SELECT 1 FROM ok), EXISTS (SELECT 1 FROM slot)
    FROM f;
  END LOOP;
END $$;
