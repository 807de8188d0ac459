#!/usr/bin/env bash
# The SMTP_* settings npm start adds to the outputs deliverer's environment, NUL-separated
# NAME=value entries: none when the operator set any setting naming a mail relay (theirs reach the
# deliverer through the environment, untouched), else the local mail catcher's.
# Usage: smtp-env.sh ROOT
set -euo pipefail
ROOT="$1"
for name in SMTP_HOST SMTP_PORT SMTP_SECURITY SMTP_USERNAME SMTP_PASSWORD SMTP_FROM SMTP_CA_FILE; do
  if [[ -n "${!name:-}" ]]; then exit 0; fi
done
printf '%s\0' SMTP_HOST=127.0.0.1 SMTP_PORT=2525 SMTP_USERNAME=relay SMTP_PASSWORD=relay-local \
  SMTP_FROM=relay@relay.local "SMTP_CA_FILE=$ROOT/.infra/mail/catcher-ca.pem"
