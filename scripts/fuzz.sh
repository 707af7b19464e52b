#!/usr/bin/env bash
# npm run fuzz: fuzzes the api from its own OpenAPI document with schemathesis (all checks, all phases).
# Installs schemathesis into a private virtual environment (~/.cache/switchboard), starts a throwaway stack
# (`switchboard dev` on free ports with a temporary data directory), creates two workspaces (each with a key, a
# journey and a lead; the second one's key is the peer of the object-level authorization check), then runs
# schemathesis bounded in time: once over every route with API keys, once over the automation endpoint with superuser
# keys in x-key. Real ids, the demo user's login and a lead's phone are drawn now and then so requests reach handlers. Writes nothing into the checkout; the reports stay in a temporary directory.
# Exits non-zero on any failure. FUZZ_MAX_TIME (seconds, default 200) bounds the schemathesis run.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"

VERSION=4.32.5
VENV="${SCHEMATHESIS_VENV:-$HOME/.cache/switchboard/schemathesis-$VERSION}"
MAX_TIME="${FUZZ_MAX_TIME:-200}"
say() { echo "[fuzz] $*" >&2; }

if [ ! -f "$VENV/.installed" ]; then
  say "installing schemathesis $VERSION into $VENV"
  rm -rf "$VENV"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$VERSION"
  touch "$VENV/.installed"
fi

WORK="$(mktemp -d "${TMPDIR:-/tmp}/switchboard-fuzz.XXXXXX")"
# As root the private PostgreSQL runs as the postgres user, which must be able to enter the data directory.
chmod 755 "$WORK"
mkdir -p "$WORK/data" "$WORK/report"
chmod 755 "$WORK/data"
STACK_PID=""
cleanup() {
  local code=$?
  if [ -n "$STACK_PID" ] && kill -0 "$STACK_PID" 2>/dev/null; then
    kill -TERM "$STACK_PID" 2>/dev/null || true
    for _ in $(seq 1 60); do kill -0 "$STACK_PID" 2>/dev/null || break; sleep 0.5; done
    kill -KILL "$STACK_PID" 2>/dev/null || true
  fi
  rm -rf "$WORK/data"
  say "reports and logs: $WORK"
  exit "$code"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Six free ports: api, PostgreSQL, Temporal, Temporal UI, worker metrics, the carrier simulator (below the ephemeral
# range, where the stack's own outgoing connections cannot take them before it binds them).
read -r API_PORT PG_PORT TEMPORAL_PORT UI_PORT METRICS_PORT SIM_PORT < <(node "$ROOT/bin/run-ts.js" "$ROOT/scripts/free-ports.ts" 6)

export SWITCHBOARD_DATA_DIR="$WORK/data" PORT="$API_PORT" HOST=127.0.0.1 DEV_POSTGRES_PORT="$PG_PORT" \
  TEMPORAL_ADDRESS="127.0.0.1:$TEMPORAL_PORT" TEMPORAL_UI_PORT="$UI_PORT" WORKER_METRICS_PORT="$METRICS_PORT" WORKER_HEALTH_PORT=0 \
  TELEPHONY_BASE_URL="http://127.0.0.1:$SIM_PORT" \
  TEMPORAL_TASK_QUEUE_PREFIX=fuzz LOG_LEVEL=warn NODE_ENV=development \
  RATE_LIMIT_PER_KEY=0 RATE_LIMIT_PER_ADDRESS=0 WEBCHAT_SESSIONS_PER_ADDRESS=0 \
  LOGIN_RATE_LIMIT_PER_ADDRESS=0 LOGIN_RATE_LIMIT_PER_EMAIL=0 LOGIN_RATE_LIMIT_PER_EMAIL_ALL_ADDRESSES=0 \
  CONNECTION_TEST_COOLDOWN_SECONDS=0 # the fuzzer sends thousands of requests a minute; limits have their own tests
unset DATABASE_URL PUBLIC_BASE_URL

say "starting the stack (log: $WORK/stack.log)"
node "$ROOT/bin/switchboard.js" dev >"$WORK/stack.log" 2>&1 &
STACK_PID=$!
for _ in $(seq 1 600); do
  grep -q 'ready:' "$WORK/stack.log" && break
  kill -0 "$STACK_PID" 2>/dev/null || { cat "$WORK/stack.log" >&2; say "the stack did not start"; exit 1; }
  sleep 0.5
done
grep -q 'ready:' "$WORK/stack.log" || { cat "$WORK/stack.log" >&2; say "the stack did not start in time"; exit 1; }
API="http://127.0.0.1:$API_PORT"

# Two workspaces, each with an API key, a journey and a lead (the stateful phase also creates its own leads).
workspace() {
  local demo key phone lead
  demo="$(node "$ROOT/bin/switchboard.js" demo --json)"
  key="$(node -e 'console.log(JSON.parse(process.argv[1]).api_key)' "$demo")"
  phone="1415555$(printf '%04d' $((RANDOM % 10000)))"
  lead="$(node -e '
    const [api, key, phone] = process.argv.slice(1);
    fetch(`${api}/v1/lead/create`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify({ phone, first_name: "Fuzz" }) })
      .then((r) => r.json()).then((b) => { if (!b.lead_id) throw new Error(JSON.stringify(b)); console.log(b.lead_id); });' "$API" "$key" "$phone")"
  # The superuser key: it reaches every route an ordinary key does, and the superuser-only ones too.
  node -e 'const d = JSON.parse(process.argv[1]); console.log(d.superuser_key, d.journey_id, process.argv[2], d.agent_id, d.flow_id, d.user.email, d.user.password, process.argv[3])' "$demo" "$lead" "$phone"
}
read -r KEY_A JOURNEY_A LEAD_A AGENT_A FLOW_A EMAIL_A PASSWORD_A PHONE_A < <(workspace)
read -r KEY_B _ _ _ _ _ _ _ < <(workspace)
say "workspaces ready (journey $JOURNEY_A, lead $LEAD_A)"

# Two runs. The first covers every route but the automation endpoint's, as the owner's API key (Bearer) with the peer's
# key for the object-level check. The second covers /api/automation/*, which take a superuser key in x-key (Bearer
# there means a user JWT, and both at once is a 400), again with the peer's superuser key as the other tenant.
auth_file() { # <header name> <value prefix>
  cat <<JSON
{ "auth": [
  { "name": "owner", "fixedHeaders": [{ "name": "$1", "value": "$2$KEY_A" }] },
  { "name": "peer", "fixedHeaders": [{ "name": "$1", "value": "$2$KEY_B" }] }
] }
JSON
}
auth_file Authorization "Bearer " >"$WORK/auth-rest.json"
auth_file x-key "" >"$WORK/auth-automation.json"
config_file() { # <auth file>
  cat <<TOML
[auth.wfc]
path = "$1"
user = "owner"
peers = ["owner", "peer"]

# Real objects of the owner's workspace, drawn now and then so generated requests reach the handlers past lookups.
[dictionaries.journeys]
values = ["$JOURNEY_A"]
[dictionaries.leads]
values = ["$LEAD_A"]
[dictionaries.agents]
values = ["$AGENT_A"]
[dictionaries.flows]
values = ["$FLOW_A"]
[dictionaries.phones]
values = ["$PHONE_A"]
[dictionaries.emails]
values = ["$EMAIL_A"]
[dictionaries.passwords]
values = ["$PASSWORD_A"]
[parameters]
"body.workflow_id" = { dictionary = "journeys", probability = 0.3 }
"body.lead_id" = { dictionary = "leads", probability = 0.3 }
"query.lead_id" = { dictionary = "leads", probability = 0.3 }
"body.agent" = { dictionary = "agents", probability = 0.3 }
"body.flow_id" = { dictionary = "flows", probability = 0.3 }
"path.flowId" = { dictionary = "flows", probability = 0.3 }
"query.phone" = { dictionary = "phones", probability = 0.3 }
"body.email" = { dictionary = "emails", probability = 0.3 }
"body.password" = { dictionary = "passwords", probability = 0.3 }

# Rules no JSON Schema can state, refused with a 400 naming the problem, so a schema-valid body can still be wrong:
# a journey's step graph (targets, reachability, loops), a call window's start before its
# end (journey call steps, agents, campaigns), a caller id that is not one of the workspace's numbers, an async automation run without its callbackUrl, a
# subscription to a step that is not a trigger or to a URL the outbound guard refuses (a private address), an
# imported file without a phone column or with a broken line, an OAuth callback's state that was never issued.
[[operations]]
include-name = ["POST /v1/journeys", "POST /v1/agents", "PATCH /v1/agents/{id}", "POST /v1/agent", "POST /api/automation/execute",
  "POST /v1/hooks", "POST /api/make-com/automation/subscribe", "POST /v1/calls/subscriptions", "POST /v1/leads/import",
  "POST /v1/campaigns"]
checks.positive_data_acceptance.expected-statuses = ["2xx", "3xx", "400", "401", "403", "404", "409", "429", "5xx"]

# The OAuth callback's query carries the vendor's code (up to 4 KiB): generated in multi-byte characters it can pass
# Node's 16 KiB limit for the URL and headers, which answers 431 before any handler runs. A state never issued is 400,
# at the callback as at the connect link that binds the browser (begin).
[[operations]]
include-name = ["GET /v1/connections/oauth/callback", "GET /v1/connections/oauth/begin"]
checks.positive_data_acceptance.expected-statuses = ["2xx", "3xx", "400", "401", "403", "404", "409", "429", "5xx"]
checks.negative_data_rejection.expected-statuses = ["400", "401", "403", "404", "405", "406", "409", "415", "422", "428", "429", "431", "5xx"]

# The same limit for the OAuth start's return_url (up to 2 KiB).
[[operations]]
include-name = ["GET /v1/connections/oauth/{integration}/start"]
checks.negative_data_rejection.expected-statuses = ["400", "401", "403", "404", "405", "406", "409", "415", "422", "428", "429", "431", "5xx"]
TOML
}
config_file "$WORK/auth-rest.json" >"$WORK/schemathesis-rest.toml"
config_file "$WORK/auth-automation.json" >"$WORK/schemathesis-automation.toml"

# (The automation routes link to nothing the second run selects, so it has no stateful phase.)
AUTOMATION='^/api/automation/'
REST_TIME=$((MAX_TIME * 3 / 4))
AUTOMATION_TIME=$((MAX_TIME - REST_TIME))
cd "$WORK"
# Bodies schemathesis cannot serialize itself (NDJSON).
export SCHEMATHESIS_HOOKS="$ROOT/scripts/fuzz-hooks.py"
# One worker: with two threads, CPython's ast module can fail inside hypothesis ("AST constructor recursion depth
# mismatch", a thread-safety bug of CPython 3.11), which schemathesis reports as a runtime error of the run.
fuzz() { # <name> <config> <seconds> <phases> <operation filter...>
  local name="$1" config="$2" seconds="$3" phases="$4"
  shift 4
  say "running schemathesis on $name (at most ${seconds}s)"
  mkdir -p "$WORK/report/$name"
  "$VENV/bin/schemathesis" --config-file "$config" run "$API/v1/openapi.json" "$@" \
    --checks all --phases "$phases" --mode all \
    --max-time "$seconds" --max-examples "${FUZZ_MAX_EXAMPLES:-60}" --request-timeout 10 \
    --generation-database none --workers 1 --no-color \
    --report junit,ndjson --report-dir "$WORK/report/$name"
}
status=0
fuzz "every route but the automation endpoint's (API keys)" "$WORK/schemathesis-rest.toml" "$REST_TIME" examples,coverage,fuzzing,stateful --exclude-path-regex "$AUTOMATION" || status=$?
fuzz "the automation endpoint (superuser keys in x-key)" "$WORK/schemathesis-automation.toml" "$AUTOMATION_TIME" examples,coverage,fuzzing --include-path-regex "$AUTOMATION" || status=$?
exit "$status"
