#!/bin/sh
# TLS cost on the CQL and Redis doors (issue 19): one Cassette node with plain and TLS on the
# same ports' data (client_encryption_options optional: true; Redis tls_port beside resp_port),
# runs alternated plain/TLS REPS times so both see the same machine load; node pinned to one
# core, the client to the other (taskset). Optionally the same against a running Cassandra
# anchor whose client_encryption_options has optional: true (ANCHOR_PORT, ANCHOR_TRUSTSTORE,
# ANCHOR_TRUSTSTORE_PASSWORD; login cassandra/cassandra).
#
#   bench/tls/compare.sh OUTDIR          (REPS=4 N=20000 THREADS=8 REDIS_N=50000;
#                                         CASSETTE_RUN=no: the anchor only; REDIS_RUN=no)
# bench/tls/with-anchor.sh starts the anchor with TLS and runs this with both.
# Prints one line per run: door op mode rep op/s p99ms; summarise with bench/tls/summary.py.
set -eu
HERE=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${1:?usage: compare.sh OUTDIR}
REPS=${REPS:-4}
N=${N:-20000}
THREADS=${THREADS:-8}
REDIS_N=${REDIS_N:-50000}
NODE_CPU=${NODE_CPU:-0}
CLIENT_CPU=${CLIENT_CPU:-1}
mkdir -p "$OUT"
CASSETTE="$HERE/bin/cassette"
NODE=

tls_opts() { # $1 truststore $2 password: the Java driver's TLS from system properties (docs/tls.md)
  echo "-Ddatastax-java-driver.advanced.ssl-engine-factory.class=DefaultSslEngineFactory \
-Ddatastax-java-driver.advanced.ssl-engine-factory.truststore-path=$1 \
-Ddatastax-java-driver.advanced.ssl-engine-factory.truststore-password=$2 \
-Ddatastax-java-driver.advanced.ssl-engine-factory.hostname-validation=false"
}

stress() { # door op mode rep port extra-java-opts extra-args
  log="$OUT/$1-$2-$3-$4.log"
  CASSETTE_JAVA_OPTS="$6" taskset -c "$CLIENT_CPU" "$CASSETTE" stress "$2" "n=$N" -rate "threads=$THREADS" \
    -node 127.0.0.1 -port "native=$5" -log no-settings $7 >"$log" 2>&1 || true
  rate=$(sed -n 's/^Op rate *: *\([0-9,]*\) op\/s.*/\1/p' "$log" | tr -d ,)
  p99=$(sed -n 's/^Latency 99th percentile *: *\([0-9.]*\) ms.*/\1/p' "$log")
  echo "$1 $2 $3 $4 ${rate:-FAILED} ${p99:-NA}"
}

redis() { # mode rep
  if [ "$1" = tls ]; then args="-p $TLSP --tls --cacert $OUT/certs/ca.pem"; else args="-p $RESP"; fi
  # shellcheck disable=SC2086
  taskset -c "$CLIENT_CPU" redis-benchmark -h 127.0.0.1 $args -t set,get -n "$REDIS_N" -c 20 -q \
    >"$OUT/redis-$1-$2.log" 2>&1 || true
  for op in SET GET; do
    rate=$(tr '\r' '\n' <"$OUT/redis-$1-$2.log" | sed -n "s/^$op: *\([0-9.]*\) requests per second.*/\1/p" | tail -1)
    p50=$(tr '\r' '\n' <"$OUT/redis-$1-$2.log" | sed -n "s/^$op:.*p50=\([0-9.]*\) msec.*/\1/p" | tail -1)
    echo "redis $op $1 $2 ${rate:-FAILED} p50=${p50:-NA}"
  done
}

if [ "${CASSETTE_RUN:-yes}" = yes ]; then
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
CQL=$(free_port); RESP=$(free_port); TLSP=$(free_port); HTTP=$(free_port)

"$CASSETTE" certs --dir "$OUT/certs" node1=127.0.0.1 >/dev/null
PW=$(cat "$OUT/certs/password")
cat > "$OUT/cassette.yaml" <<YAML
data_directory: $OUT/data
native_transport_port: $CQL
resp_port: $RESP
http_port: $HTTP
tls_port: $TLSP
tls_cert_file: $OUT/certs/node1.pem
tls_key_file: $OUT/certs/node1-key.pem
tls_ca_cert_file: $OUT/certs/ca.pem
tls_auth_clients: "no"
client_encryption_options:
  enabled: true
  optional: true
  keystore: $OUT/certs/node1.p12
  keystore_password: $PW
YAML
CASSETTE_CONF="$OUT/cassette.yaml" taskset -c "$NODE_CPU" "$CASSETTE" start --heap 128m >"$OUT/node.log" 2>&1 &
NODE=$!
trap 'kill $NODE 2>/dev/null || true; wait $NODE 2>/dev/null || true' EXIT INT TERM
for _ in $(seq 1 120); do
  (exec 3<>"/dev/tcp/127.0.0.1/$CQL") 2>/dev/null && break
  sleep 1
done

TLS=$(tls_opts "$OUT/certs/truststore.p12" "$PW")
stress cassette write plain 0 "$CQL" "" "" >/dev/null # warm-up: schema, JIT
fi

# With an anchor, its pairs run in the same loop as Cassette's (each rep: Cassette's pairs,
# then Cassandra's), so both see the same hour of machine load.
if [ -n "${ANCHOR_PORT:-}" ]; then
  ATLS=$(tls_opts "$ANCHOR_TRUSTSTORE" "$ANCHOR_TRUSTSTORE_PASSWORD")
  AUTH="-mode native cql3 user=cassandra password=cassandra"
  stress cassandra write plain 0 "$ANCHOR_PORT" "" "$AUTH" >/dev/null
fi
for rep in $(seq 1 "$REPS"); do
  if [ "${CASSETTE_RUN:-yes}" = yes ]; then
    for op in write read; do
      stress cassette "$op" plain "$rep" "$CQL" "" ""
      stress cassette "$op" tls "$rep" "$CQL" "$TLS" ""
    done
    [ "${REDIS_RUN:-yes}" = yes ] && { redis plain "$rep"; redis tls "$rep"; }
  fi
  if [ -n "${ANCHOR_PORT:-}" ]; then
    for op in write read; do
      stress cassandra "$op" plain "$rep" "$ANCHOR_PORT" "" "$AUTH"
      stress cassandra "$op" tls "$rep" "$ANCHOR_PORT" "$ATLS" "$AUTH"
    done
  fi
done
[ -n "$NODE" ] && kill $NODE 2>/dev/null || true
