#!/usr/bin/env bash
# Re-creates deploy/k8s/schemas/kubernetes-<version>-strict/ from the PyPI package
# kubernetes-validate: the JSON schemas it generates from the Kubernetes OpenAPI definitions,
# "strict" flavour (an object rejects fields its API type does not have, as
# `kubectl apply --validate=strict` does). Only the kinds deploy/k8s uses are copied, with the
# shared _definitions.json they reference, unmodified. Run by hand when a kind is added or the
# Kubernetes version moves; the tests never reach the network. See README.md beside this file.
set -euo pipefail

PACKAGE_VERSION=1.37.0
K8S_VERSION=1.34
KINDS=(
  configmap-v1
  deployment-apps-v1
  horizontalpodautoscaler-autoscaling-v2
  namespace-v1
  poddisruptionbudget-policy-v1
  secret-v1
  service-v1
  serviceaccount-v1
)

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OUT="$HERE/kubernetes-v$K8S_VERSION-strict"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

python3 -m pip download --quiet --no-deps --dest "$tmp" "kubernetes-validate==$PACKAGE_VERSION"
wheel="$(ls "$tmp"/kubernetes_validate-"$PACKAGE_VERSION"-*.whl)"
python3 -m zipfile -e "$wheel" "$tmp/x"
src="$tmp/x/kubernetes_validate/kubernetes-json-schema/v$K8S_VERSION.0-local-strict"
[[ -d "$src" ]] || { echo "vendor: $src not in the wheel" >&2; exit 1; }

rm -rf "$OUT"
mkdir -p "$OUT"
cp "$src/_definitions.json" "$OUT/"
for kind in "${KINDS[@]}"; do cp "$src/$kind.json" "$OUT/"; done
(cd "$OUT" && sha256sum ./*.json > SHA256SUMS)
echo "vendor: kubernetes-validate $PACKAGE_VERSION ($(sha256sum "$wheel" | cut -c1-64)) -> ${OUT#"$HERE"/}"
