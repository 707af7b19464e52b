-- Call admission is judged in one place, src/calls/admission.ts: the database no longer judges an api call (019's
-- place_api_calls checked the caller id, the do-not-call list and the facts the window was judged on), it only holds
-- the concurrent-call cap exact. write_admitted_calls writes admitted api calls in one round trip and one commit, each
-- in order (each sees the slots the earlier ones took): per call i it takes a slot of workspace $workspaces[i] by the
-- conditional upsert on its counter row (the row lock held to the commit; callers send a batch in workspace order),
-- and only then writes the call row holding it and marks its caller id used. One row per call: `agent` (the agent is
-- still the workspace's) and `placed` (the row was written).
DROP FUNCTION place_api_calls(text[], uuid[], uuid[], text[], text[], jsonb[], text[], text[], jsonb[], text[], boolean[]);

CREATE FUNCTION write_admitted_calls(
  p_ids text[], p_workspaces uuid[], p_agents uuid[], p_leads uuid[], p_tos text[], p_froms text[], p_request_data jsonb[])
RETURNS TABLE (n integer, agent boolean, placed boolean)
LANGUAGE plpgsql AS $$
BEGIN
  FOR i IN 1 .. coalesce(array_length(p_ids, 1), 0) LOOP
    RETURN QUERY
    WITH known AS (SELECT 1 FROM agents a WHERE a.workspace_id = p_workspaces[i] AND a.id = p_agents[i]),
    slot AS (
      INSERT INTO call_slot_counts AS c (workspace_id, used)
      SELECT w.id, 1 FROM workspaces w WHERE w.id = p_workspaces[i] AND w.max_concurrent_calls > 0 AND EXISTS (SELECT 1 FROM known)
      ON CONFLICT (workspace_id) DO UPDATE SET used = c.used + 1
        WHERE c.used < (SELECT max_concurrent_calls FROM workspaces WHERE id = p_workspaces[i])
      RETURNING 1),
    placed_call AS (
      INSERT INTO calls (id, workspace_id, agent_id, lead_id, phone_to, phone_from, request_data, slot_taken_at)
      SELECT p_ids[i], p_workspaces[i], p_agents[i], p_leads[i], p_tos[i], p_froms[i], p_request_data[i], now()
      WHERE EXISTS (SELECT 1 FROM slot)),
    touched AS (
      UPDATE phone_numbers p SET last_used_at = now()
      WHERE p.workspace_id = p_workspaces[i] AND p.phone = p_froms[i] AND EXISTS (SELECT 1 FROM slot))
    SELECT i, EXISTS (SELECT 1 FROM known), EXISTS (SELECT 1 FROM slot);
  END LOOP;
END $$;
