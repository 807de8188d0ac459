#!/usr/bin/env bash
# The kustomize that renders deploy/k8s in the tests: `kubectl kustomize` of Debian 12's
# kubernetes-client package (kubectl 1.20, which embeds kustomize v2.0.3), unpacked into
# .infra/tools/kubernetes-client instead of installed. Why unpacked: another package may own
# /usr/bin/kubectl (the Google Cloud SDK's `kubectl` does), and dpkg refuses two owners of one
# file; and the tests must render with this kustomize, whatever kubectl a PATH has.
# Idempotent: does nothing when the binary is there and runs. docs/operations.md "Kubernetes".
#
#   bash scripts/k8s-tools.sh          prints the kubectl path
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DEST="$ROOT/.infra/tools/kubernetes-client"
KUBECTL="$DEST/usr/bin/kubectl"

log() { echo "k8s-tools: $*" >&2; }

if [[ -x "$KUBECTL" ]] && "$KUBECTL" version --client >/dev/null 2>&1; then
  echo "$KUBECTL"
  exit 0
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# apt's download step runs as the _apt user, which must be able to write here
chmod 0777 "$tmp"
download() { (cd "$tmp" && apt-get download -qq kubernetes-client >/dev/null 2>&1); }
if ! download; then
  # a fresh machine may have no package lists yet
  log "apt-get update"
  apt-get update -qq
  download || { log "ERROR: apt-get download kubernetes-client failed"; exit 1; }
fi
deb="$(ls "$tmp"/kubernetes-client_*.deb)"
rm -rf "$DEST.tmp"
mkdir -p "$DEST.tmp"
dpkg-deb -x "$deb" "$DEST.tmp"
rm -rf "$DEST"
mv "$DEST.tmp" "$DEST"
log "unpacked $(basename "$deb") into ${DEST#"$ROOT"/}"
"$KUBECTL" version --client >/dev/null
echo "$KUBECTL"
