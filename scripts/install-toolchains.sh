#!/usr/bin/env bash
# Debian toolchains the other-language round-trip tests compile with (idempotent; CI runs it as root).
set -euo pipefail
need=()
command -v go >/dev/null 2>&1 || need+=(golang-go)
[ -x /usr/bin/python3 ] || need+=(python3)
/usr/bin/python3 -c 'import dateutil' >/dev/null 2>&1 || need+=(python3-dateutil)
if [ ${#need[@]} -gt 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
echo "toolchains: go $(go version | awk '{print $3}'), $(/usr/bin/python3 --version)"
