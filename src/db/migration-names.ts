/**
 * The files applied before migration names had a rule, exactly as databases recorded them in schema_migrations (002
 * and 008 twice, 010_a/010_b, no 017): kept as they are, since the migrator knows applied files by name.
 */
export const LEGACY_MIGRATIONS: readonly string[] = [
  '001_init.sql',
  '002_idempotency_expiry.sql',
  '002_journeys.sql',
  '003_rate_limits.sql',
  '004_webhook_secret_rotation.sql',
  '005_journey_versions_notify.sql',
  '006_workspace_scoping.sql',
  '007_outbound_calls.sql',
  '008_call_events.sql',
  '008_calls_list.sql',
  '009_automation_runs.sql',
  '010_a_user_integrations.sql',
  '010_b_connections_sealed.sql',
  '011_webchat.sql',
  '012_lead_search.sql',
  '013_agent_numbers.sql',
  '014_journey_hooks.sql',
  '015_lead_tags.sql',
  '016_call_slot_counter.sql',
  '018_chat_automations.sql',
  '019_place_api_calls.sql',
  '020_chat_sessions_unverified.sql',
  '021_automation_unsent_tries.sql',
  '022_idempotency_caller.sql',
  '023_api_key_scopes.sql',
];

const NEW_NAME = /^(\d{3})_[a-z0-9]+(?:_[a-z0-9]+)*\.sql$/;

/**
 * What is wrong with the names of the migration files: every file after the legacy ones is `NNN_words.sql`, its
 * three-digit number above 023 and its own (the next free number: two branches that both took it collide here).
 */
export function migrationNameProblems(files: readonly string[]): string[] {
  const legacy = new Set(LEGACY_MIGRATIONS);
  const problems: string[] = [];
  const byNumber = new Map<string, string>();
  for (const file of files) {
    if (legacy.has(file)) continue;
    const m = NEW_NAME.exec(file);
    if (!m) {
      problems.push(`${file}: a new migration is named NNN_words.sql (three digits, lowercase words joined by _)`);
      continue;
    }
    const n = m[1]!;
    if (Number(n) <= 23) problems.push(`${file}: ${n} is not above 023, the last legacy migration`);
    const other = byNumber.get(n);
    if (other) problems.push(`${file}: number ${n} is taken by ${other}; take the next free number`);
    byNumber.set(n, file);
  }
  for (const file of LEGACY_MIGRATIONS) if (!files.includes(file)) problems.push(`${file}: applied migrations keep their names`);
  return problems;
}
