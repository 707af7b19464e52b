#!/bin/sh
# Registers the namespace and the custom search attributes Switchboard's workflows use (run by
# the temporal-namespace job in docker-compose.yml, image temporalio/admin-tools). Idempotent:
# anything that already exists is left as it is.
# Env: TEMPORAL_ADDRESS (read by the temporal CLI), TEMPORAL_NAMESPACE, TEMPORAL_NAMESPACE_RETENTION.
set -eu

NAMESPACE=${TEMPORAL_NAMESPACE:-default}
RETENTION=${TEMPORAL_NAMESPACE_RETENTION:-168h}
# Every key of src/temporal/search-attribute-keys.ts (test/unit/compose.test.ts holds the two lists equal).
SEARCH_ATTRIBUTES="WorkspaceId LeadId JourneyId FlowId CallId AgentId AutomationType Outcome"

retry() {
  tries=0
  until "$@" >/dev/null 2>&1; do
    tries=$((tries + 1))
    if [ "$tries" -ge 60 ]; then
      echo "Gave up waiting for: $*" >&2
      exit 1
    fi
    sleep 2
  done
}

# Succeeds when the command succeeds or fails only because the thing already exists.
create_or_exists() {
  if out=$("$@" 2>&1); then
    echo "$out"
  elif printf '%s' "$out" | grep -qi 'already exists'; then
    echo "already exists: $*"
  else
    echo "$out" >&2
    return 1
  fi
}

retry temporal operator cluster health

if ! temporal operator namespace describe --namespace "$NAMESPACE" >/dev/null 2>&1; then
  create_or_exists temporal operator namespace create --namespace "$NAMESPACE" --retention "$RETENTION"
fi

# A new namespace reaches the frontend's namespace cache a few seconds after it is created.
retry temporal operator search-attribute list --namespace "$NAMESPACE"

for name in $SEARCH_ATTRIBUTES; do
  create_or_exists temporal operator search-attribute create --namespace "$NAMESPACE" \
    --name "$name" --type Keyword
done
echo "Namespace $NAMESPACE and its search attributes are ready"
