#!/bin/sh
# Runs the differential corpus against a throwaway Cassandra 5.0.4 (../shared/anchors/cassandra)
# and Cassette, then prints the summary; the full report is cql/target/differential-report.txt.
# Usage (from the repository root): sh cql/src/test/resources/io/cassette/cql/language/differential/run.sh
set -eu
ANCHOR_DIR="${ANCHOR_DIR:-../shared/anchors/cassandra}"
PORT="${PORT:-19042}"
LISTEN="${LISTEN:-127.0.0.1}"
# corpus6 crosses the tombstone thresholds; DifferentialCorpusTest gives Cassette the same ones.
out="$(LISTEN="$LISTEN" PORT="$PORT" STORAGE_PORT="${STORAGE_PORT:-17000}" JMX_PORT=off MLOCK=no PRETOUCH=no \
  EXTRA_YAML="$(printf 'tombstone_warn_threshold: 10\ntombstone_failure_threshold: 20')" \
  "$ANCHOR_DIR/start-cassandra.sh" | tail -1)"
data_dir="$(echo "$out" | sed -n 's/.*DATA_DIR=\([^ ]*\).*/\1/p')"
trap '"$ANCHOR_DIR/stop-cassandra.sh" "$data_dir" >/dev/null 2>&1 || true' EXIT
./mvnw -q -o -pl cql -am -Pslow -Dtest=DifferentialCorpusTest -Dsurefire.failIfNoSpecifiedTests=false \
  -Dcassandra.anchor="$LISTEN:$PORT" test
head -1 cql/target/differential-report.txt
