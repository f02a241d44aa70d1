#!/usr/bin/env bash
# Debian packages the optional tests need (idempotent; CI runs it as root). Without them those tests are skipped with
# a reason; CI sets WOPKIT_REQUIRE_TOOLCHAINS=1 so that a missing one fails instead.
#   other-language round trips: Go, Python + dateutil, Mono C# + Newtonsoft.Json, Rust's serde crates (offline
#   directory registry), Kotlin;  browser tests: Chromium;  storage tests: a PostgreSQL server.
set -euo pipefail
need=()
command -v go >/dev/null 2>&1 || need+=(golang-go)
[ -x /usr/bin/python3 ] || need+=(python3)
/usr/bin/python3 -c 'import dateutil' >/dev/null 2>&1 || need+=(python3-dateutil)
command -v mcs >/dev/null 2>&1 || need+=(mono-mcs)
command -v mono >/dev/null 2>&1 || need+=(mono-runtime)
[ -f /usr/lib/cli/Newtonsoft.Json-5.0/Newtonsoft.Json.dll ] || need+=(libnewtonsoft-json-cil-dev)
command -v cargo >/dev/null 2>&1 || need+=(cargo)
ls -d /usr/share/cargo/registry/serde_json-1* >/dev/null 2>&1 || need+=(librust-serde-json-dev librust-serde-derive-dev)
command -v kotlinc >/dev/null 2>&1 || need+=(kotlin)
[ -x /usr/bin/chromium ] || need+=(chromium)
command -v pg_ctlcluster >/dev/null 2>&1 || need+=(postgresql)
if [ ${#need[@]} -gt 0 ]; then
  echo "installing: ${need[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
# Debian's postgresql package creates the cluster but starts it only where a service manager runs (not in a bare
# container): start every cluster that is down, so the PostgreSQL tests find a server on 127.0.0.1.
pg_lsclusters -h 2>/dev/null | while read -r version name _port status _rest; do
  case "$status" in online*) ;; *) pg_ctlcluster "$version" "$name" start ;; esac
done
echo "toolchains: $(go version | awk '{print $3}'), $(/usr/bin/python3 --version), mcs $(mcs --version | awk '{print $NF}'), $(cargo --version), kotlinc present, $(/usr/bin/chromium --version 2>/dev/null | head -1), PostgreSQL $(ls /usr/lib/postgresql)"
