#!/bin/sh
# Cassette's and Cassandra's TLS cost in one run (issue 19): starts the Cassandra 5.0.4 anchor
# (/work/shared/anchors/cassandra, AUTH=yes) with client_encryption_options enabled and
# optional (plain and TLS on one port, like Cassette's node in compare.sh), its key from
# `cassette certs` (PKCS12, EC P-256, the same kind as Cassette's), then runs compare.sh with
# both: each rep runs Cassette's plain/TLS pairs, then Cassandra's. Stops the anchor at the end.
#
#   bench/tls/with-anchor.sh OUTDIR      (ANCHORS=/work/shared/anchors/cassandra; REPS, N... as compare.sh)
set -eu
HERE=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${1:?usage: with-anchor.sh OUTDIR}
ANCHORS=${ANCHORS:-/work/shared/anchors/cassandra}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

"$HERE/bin/cassette" certs --dir "$OUT/anchor-certs" cassandra=127.0.0.1 >/dev/null
APW=$(cat "$OUT/anchor-certs/password")
APORT=$(free_port)
ASTORAGE=$(free_port)
EXTRA="client_encryption_options:
  enabled: true
  optional: true
  keystore: $OUT/anchor-certs/cassandra.p12
  keystore_password: $APW
  store_type: PKCS12
  require_client_auth: false"
# One core for the servers, the other for the stress clients (as compare.sh pins them).
started=$(AUTH=yes JMX_PORT=off MLOCK=no PRETOUCH=no PORT=$APORT STORAGE_PORT=$ASTORAGE \
  EXTRA_YAML="$EXTRA" taskset -c "${NODE_CPU:-0}" "$ANCHORS/start-cassandra.sh" | tail -1)
echo "anchor: $started" >"$OUT/anchor.txt"
ADATA=$(echo "$started" | sed -n 's/.*DATA_DIR=\([^ ]*\).*/\1/p')
trap '"$ANCHORS/stop-cassandra.sh" "$ADATA" >/dev/null 2>&1 || true' EXIT INT TERM

ANCHOR_PORT=$APORT ANCHOR_TRUSTSTORE="$OUT/anchor-certs/truststore.p12" ANCHOR_TRUSTSTORE_PASSWORD=$APW \
  "$HERE/bench/tls/compare.sh" "$OUT"
