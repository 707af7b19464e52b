#!/usr/bin/env bash
# Installs the tools the deployment tests use, once per machine, into ~/.cache/switchboard: helm and Caddy (built
# from the Go module proxy) and kubernetes-validate (PyPI; it bundles the Kubernetes API JSON schemas), so the Helm
# chart is rendered and validated offline and the compose proxy's Caddyfile is run for real.
# Idempotent and quick once cached; concurrent callers wait for one install (a lock folder). Prints the paths as
# `helm=<path>`, `caddy=<path>` and `kubernetes_validate=<path>`.
set -euo pipefail

HELM_VERSION=v3.19.0
CADDY_VERSION=v2.10.2
KV_VERSION=1.37.0
CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/switchboard"
HELM_DIR="$CACHE/helm-$HELM_VERSION"
CADDY_DIR="$CACHE/caddy-$CADDY_VERSION"
KV_DIR="$CACHE/kubernetes-validate-$KV_VERSION"
say() { echo "[deploy-tools] $*" >&2; }

if ! command -v go >/dev/null && [ -x /usr/local/go/bin/go ]; then export PATH="/usr/local/go/bin:$PATH"; fi
mkdir -p "$CACHE"

# One install at a time; a lock older than 30 minutes belongs to an install that died.
LOCK="$CACHE/deploy-tools.lock"
until mkdir "$LOCK" 2>/dev/null; do
  if [ -n "$(find "$LOCK" -maxdepth 0 -mmin +30 2>/dev/null)" ]; then rm -rf "$LOCK"; continue; fi
  say "another process is installing the Kubernetes tools; waiting"
  sleep 5
done
trap 'rm -rf "$LOCK"' EXIT

if [ ! -x "$HELM_DIR/helm" ]; then
  say "building helm $HELM_VERSION from the Go module proxy into $HELM_DIR (once per machine; a few minutes)"
  CGO_ENABLED=0 GOBIN="$HELM_DIR" go install "helm.sh/helm/v3/cmd/helm@$HELM_VERSION"
fi

if [ ! -x "$CADDY_DIR/caddy" ]; then
  say "building caddy $CADDY_VERSION from the Go module proxy into $CADDY_DIR (once per machine; a few minutes)"
  CGO_ENABLED=0 GOBIN="$CADDY_DIR" go install "github.com/caddyserver/caddy/v2/cmd/caddy@$CADDY_VERSION"
fi

if [ ! -f "$KV_DIR/.installed" ]; then
  say "installing kubernetes-validate $KV_VERSION into $KV_DIR"
  rm -rf "$KV_DIR"
  python3 -m venv "$KV_DIR"
  "$KV_DIR/bin/pip" install --quiet --disable-pip-version-check "kubernetes-validate==$KV_VERSION"
  touch "$KV_DIR/.installed"
fi

echo "helm=$HELM_DIR/helm"
echo "caddy=$CADDY_DIR/caddy"
echo "kubernetes_validate=$KV_DIR/bin/kubernetes-validate"
