#!/usr/bin/env bash
# The helm the chart tests use (deploy/helm/relay, test/unit/deploy/helm.test.ts): built from its
# Go module with `go install` through the Go module proxy into .infra/bin, at niceness 19 (a build
# takes minutes of CPU on a fresh machine). Idempotent: does nothing when .infra/bin/helm is
# already this version. Needs Go (1.24 or later). docs/operations.md "Helm".
#
#   bash scripts/helm-tool.sh          prints the helm path
set -euo pipefail

VERSION=v3.22.0
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BIN="$ROOT/.infra/bin"
HELM="$BIN/helm"

log() { echo "helm-tool: $*" >&2; }

# the module version go recorded in the binary (`helm version` says only v3.22 when built this way)
built() { go version -m "$HELM" 2>/dev/null | awk '$1 == "mod" { print $3 }'; }
if [[ -x "$HELM" ]] && command -v go >/dev/null && [[ "$(built)" == "$VERSION" ]]; then
  echo "$HELM"
  exit 0
fi
command -v go >/dev/null || { log "ERROR: go is not installed (https://go.dev/dl/)"; exit 1; }
mkdir -p "$BIN"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
log "go install helm.sh/helm/v3/cmd/helm@$VERSION"
# built aside and moved in whole: a concurrent run never sees a half-written binary
(cd "$tmp" && GOBIN="$tmp" GOFLAGS=-buildvcs=false nice -n 19 go install "helm.sh/helm/v3/cmd/helm@$VERSION")
mv "$tmp/helm" "$HELM"
[[ "$(built)" == "$VERSION" ]] || { log "ERROR: $HELM is not helm $VERSION"; exit 1; }
echo "$HELM"
