# Start, probe, measure and stop the three servers bench/run compares. Sourced by bench/run
# (bash). Every server is started in the background with its PID recorded in $WORK/pids;
# stop_all (bench/run's exit trap) stops each one by PID, never by name.
#
# Uses from the caller: WORK (scratch dir, in every server's command line), OUT (results),
# PY (python3), PROBE (probe.py), SHIM (slowfsync.so), SWITCH (the shim's on/off file),
# SERVER_PIN / LOAD_PIN (taskset prefixes, arrays, empty in the machine profile),
# PROFILE (board|machine), CASSETTE_HOME_COPY, CASSANDRA_LIB.

STOP_TIMEOUT_S=${STOP_TIMEOUT_S:-30}    # SIGTERM, then SIGKILL after this many seconds
START_TIMEOUT_S=${START_TIMEOUT_S:-240} # Cassandra's first boot alone waits 30 s (RING_DELAY)

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
# Progress lines go to the run's stderr as it was at start (fd 3, opened by bench/run), so a
# line logged from the trap while a step's output is redirected still reaches the terminal.
log() { printf '%s %s\n' "$(date -u +%H:%M:%S)" "$*" | tee -a "$OUT/run.log" >&3; }

# bounded SECONDS COMMAND...: runs a load-generator step on the load core, killed after
# SECONDS. It runs in the background and is waited for, so an interrupt reaches bench/run's
# trap at once (bash defers traps while a foreground child runs); the trap kills STEP_PIDS.
STEP_PIDS=()
bounded() {
  local seconds=$1 pid rc
  shift
  "${LOAD_PIN[@]}" timeout "$seconds" "$@" &
  pid=$!
  STEP_PIDS+=("$pid")
  wait "$pid"
  rc=$?
  local left=() p
  for p in "${STEP_PIDS[@]}"; do
    [ "$p" = "$pid" ] || left+=("$p")
  done
  STEP_PIDS=("${left[@]}")
  return "$rc"
}

# stop_steps: TERM to every running step (timeout passes it on to its command).
stop_steps() {
  local pid
  for pid in "${STEP_PIDS[@]}"; do
    [ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null
  done
  STEP_PIDS=()
}

# metric SYSTEM KEY VALUE: one measured figure, read by report.py.
metric() { printf '%s\t%s\t%s\n' "$1" "$2" "$3" >> "$OUT/raw/metrics.tsv"; }

register_pid() { echo "$1 $2" >> "$WORK/pids"; }

# ours PID: true if PID is alive and was started by this run (a guard against a reused PID):
# its command line names $WORK, or its working directory is under $WORK. Redis rewrites its
# command line and environment area ("redis-server 127.0.0.1:PORT") but runs in its --dir.
ours() {
  [ -r "/proc/$1/cmdline" ] || return 1
  tr '\0' '\n' < "/proc/$1/cmdline" | grep -qF "$WORK" && return 0
  case $(readlink "/proc/$1/cwd" 2>/dev/null) in
    "$WORK"/*) return 0 ;;
  esac
  return 1
}

# stop_pid PID NAME: SIGTERM, wait up to STOP_TIMEOUT_S, then SIGKILL.
stop_pid() {
  local pid=$1 name=$2 i
  ours "$pid" || return 0
  log "stopping $name (pid $pid)"
  kill -TERM "$pid" 2>/dev/null || return 0
  for ((i = 0; i < STOP_TIMEOUT_S * 10; i++)); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.1
  done
  log "$name (pid $pid) still alive after ${STOP_TIMEOUT_S}s: SIGKILL"
  kill -KILL "$pid" 2>/dev/null || true
}

stop_all() {
  [ -f "$WORK/pids" ] || return 0
  local pid name
  while read -r pid name; do
    stop_pid "$pid" "$name"
  done < "$WORK/pids"
}

# listener_pid PORT: the PID listening on 127.0.0.1:PORT (empty if none or ss is missing).
listener_pid() {
  command -v ss >/dev/null 2>&1 || return 0
  ss -ltnpH "sport = :$1" 2>/dev/null | sed -n 's/.*pid=\([0-9]*\).*/\1/p' | head -1
}

# await_ready SYSTEM PROTO PORT PID T0: waits for the first answered query; records
# start_s (from T0 = just before the process was launched). Refuses a port answered by
# another process (another engineer's server), so no figure is taken from someone else's.
await_ready() {
  local system=$1 proto=$2 port=$3 pid=$4 t0=$5 t1 owner
  if ! bounded "$((START_TIMEOUT_S + 10))" "$PY" "$PROBE" ready "$proto" 127.0.0.1 "$port" \
      "$START_TIMEOUT_S" "$pid" >> "$OUT/raw/$system/ready.txt" 2>&1; then
    log "$system did not answer $proto on port $port; see $OUT/raw/$system/"
    return 1
  fi
  t1=$(now)
  kill -0 "$pid" 2>/dev/null || { log "$system (pid $pid) died; see $OUT/raw/$system/"; return 1; }
  owner=$(listener_pid "$port")
  if [ -n "$owner" ] && [ "$owner" != "$pid" ]; then
    log "port $port answered by pid $owner, not $system's pid $pid"
    return 1
  fi
  metric "$system" "${START_METRIC:-start_s}" "$(elapsed "$t0" "$t1")"
  log "$system answered $proto after $(elapsed "$t0" "$t1") s"
}

# snapshot_proc SYSTEM PID LABEL: VmRSS/VmHWM (kB) and /proc/PID/io into metrics.
snapshot_proc() {
  local system=$1 pid=$2 label=$3
  cp "/proc/$pid/status" "$OUT/raw/$system/status-$label.txt" 2>/dev/null || true
  cat "/proc/$pid/io" > "$OUT/raw/$system/io-$label.txt" 2>/dev/null || true
  metric "$system" "rss_kb_$label" "$(awk '/^VmRSS/ { print $2 }' "/proc/$pid/status")"
  metric "$system" "hwm_kb_$label" "$(awk '/^VmHWM/ { print $2 }' "/proc/$pid/status")"
  metric "$system" "write_bytes_$label" "$(awk '/^write_bytes/ { print $2 }' "/proc/$pid/io")"
  metric "$system" "cancelled_write_bytes_$label" \
    "$(awk '/^cancelled_write_bytes/ { print $2 }' "/proc/$pid/io")"
}

# cpu_ticks PID: the process's user + system CPU time so far, in clock ticks (fields 14 and 15
# of /proc/PID/stat, counted after the ")" that ends the command name, which may hold spaces).
# Includes every thread, dead ones too: JIT, GC, flush and compaction are the server's cost.
cpu_ticks() {
  sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | awk '{ print $12 + $13 }'
}

# cpu_phase SYSTEM PID PHASE OPS COMMAND...: runs COMMAND (a bounded load step) and records
# the server's CPU ticks spent during it and the operations it asked for, for report.py's
# "server CPU per operation" rows; and the load generator's own CPU time and the step's wall
# time (a generator near a whole core of its own is the bound, not the server). Returns
# COMMAND's exit status.
cpu_phase() {
  local system=$1 pid=$2 phase=$3 ops=$4 before after rc t0 t1 load_before load_after
  shift 4
  before=$(cpu_ticks "$pid")
  children_cpu_ms
  load_before=$CHILDREN_MS
  t0=$(date +%s%N)
  "$@"
  rc=$?
  t1=$(date +%s%N)
  children_cpu_ms
  load_after=$CHILDREN_MS
  after=$(cpu_ticks "$pid")
  if [ -n "$before" ] && [ -n "$after" ]; then
    metric "$system" "cpu_ticks_$phase" "$((after - before))"
    metric "$system" "cpu_ops_$phase" "$ops"
  fi
  metric "$system" "load_cpu_ms_$phase" "$((load_after - load_before))"
  metric "$system" "wall_ms_$phase" "$(((t1 - t0) / 1000000))"
  return "$rc"
}

# children_cpu_ms: sets CHILDREN_MS to the user + system milliseconds of this shell's
# waited-for children so far (the load steps run as its children: bounded waits for them).
# Call it as a command, never in $(...): `times` in a subshell counts the subshell's children.
children_cpu_ms() {
  times > "$OUT/raw/.times"
  CHILDREN_MS=$(sed -n 2p "$OUT/raw/.times" | awk '{
    t = 0
    for (i = 1; i <= 2; i++) { split($i, a, "m"); sub("s", "", a[2]); t += a[1] * 60 + a[2] }
    printf "%d\n", t * 1000 }')
}

# The environment every server starts with: the fsync shim loaded but switched off.
shim_env() {
  echo "LD_PRELOAD=$SHIM" "SLOWFSYNC_SWITCH=$SWITCH" "SLOWFSYNC_MS=$SLOW_FSYNC_MS" \
    "SLOWFSYNC_LOG=$OUT/raw/$1/slowfsync.log"
}

# start_cassette CQL RESP HTTP: sets CASSETTE_PID.
start_cassette() {
  local cql=$1 resp=$2 http=$3 t0 opts=() heap=()
  mkdir -p "$OUT/raw/cassette"
  local java_opts=""
  if [ "$PROFILE" = board ]; then
    java_opts="-XX:ActiveProcessorCount=1 ${BENCH_CASSETTE_EXTRA:-}"
    heap=(--heap 128m)
  fi
  [ -n "$java_opts" ] && opts=(CASSETTE_JAVA_OPTS="$java_opts")
  log "starting Cassette (cql $cql, resp $resp, http $http)"
  t0=$(now)
  # shellcheck disable=SC2046
  env $(shim_env cassette) "${opts[@]}" "${SERVER_PIN[@]}" \
    "$CASSETTE_HOME_COPY/bin/cassette" start "${heap[@]}" --data-dir "$WORK/cassette-data" \
    --cql-port "$cql" --resp-port "$resp" --http-port "$http" \
    >> "$OUT/raw/cassette/stdout.log" 2>&1 < /dev/null &
  CASSETTE_PID=$!
  register_pid "$CASSETTE_PID" cassette
  await_ready cassette cql "$cql" "$CASSETTE_PID" "$t0"
}

# prime_cassette CQL RESP HTTP: one unmeasured start and stop on a scratch data directory, so
# that the class-data archive bin/cassette has a node make when it stops exists, as it does
# for every start of an installed node after its first. That first start is recorded as
# first_start_s; the scratch data is removed, so the measured start is still on an empty
# directory.
prime_cassette() {
  START_METRIC=first_start_s start_cassette "$@" || log "cassette: the priming start failed"
  stop_pid "$CASSETTE_PID" cassette
  rm -rf "$WORK/cassette-data"
  if ls "$CASSETTE_HOME_COPY"/lib/cassette-*.jsa > /dev/null 2>&1; then
    log "cassette: class-data archive made by the priming start"
  else
    log "cassette: no class-data archive after the priming start; see $OUT/raw/cassette/stdout.log"
  fi
}

# The heap stock cassandra-env.sh picks: max(min(1/2 RAM, 1 GB), min(1/4 RAM, 8 GB)).
cassandra_stock_heap_mb() {
  awk '/^MemTotal/ { m = $2 / 1024; half = m / 2; if (half > 1024) half = 1024;
         q = m / 4; if (q > 8192) q = 8192; printf "%d", (half > q ? half : q) }' /proc/meminfo
}

# The jars of the real Cassandra 5.0.4 (Maven Central), fetched once into CASSANDRA_LIB.
ensure_cassandra_lib() {
  [ -f "$CASSANDRA_LIB/cassandra-all-5.0.4.jar" ] && return 0
  log "fetching cassandra-all 5.0.4 and its runtime dependencies into $CASSANDRA_LIB"
  mkdir -p "$CASSANDRA_LIB"
  timeout 900 "$REPO/mvnw" -q -B -f "$BENCH/lib/cassandra/pom.xml" dependency:copy-dependencies \
    -DincludeScope=runtime -DoutputDirectory="$CASSANDRA_LIB" >&2
}

# start_cassandra CQL STORAGE JMX: sets CASSANDRA_PID. The JVM flags are those stock 5.0
# bin/cassandra + cassandra-env.sh + jvm-server.options + jvm17-server.options assemble on
# Java 17 (as ../shared/anchors/cassandra/start-cassandra.sh), mlockall as the packages do.
start_cassandra() {
  local cql=$1 storage=$2 jmx=$3 dir="$WORK/cassandra" heap t0 extra=()
  mkdir -p "$OUT/raw/cassandra" "$dir"/{conf,data,commitlog,saved_caches,hints,cdc_raw,logs}
  if [ "$PROFILE" = board ]; then
    heap=512M
    extra=(-XX:ActiveProcessorCount=1)
  else
    heap="$(cassandra_stock_heap_mb)M"
  fi
  metric cassandra heap "$heap"
  sed -e "s|@CLUSTER_NAME@|bench|g" -e "s|@NUM_TOKENS@|16|g" \
    -e "s|@STORAGE_PORT@|$storage|g" -e "s|@SSL_STORAGE_PORT@|$((storage + 1))|g" \
    -e "s|@PORT@|$cql|g" -e "s|@DATA_DIR@|$dir|g" \
    "$BENCH/lib/cassandra/cassandra.yaml" > "$dir/conf/cassandra.yaml"
  cp "$BENCH/lib/cassandra/logback.xml" "$dir/conf/logback.xml"
  local opts=(
    -ea -da:net.openhft... -XX:+UseThreadPriorities -XX:+HeapDumpOnOutOfMemoryError
    -Xss256k -XX:+UseTLAB -XX:+ResizeTLAB -XX:+UseNUMA -XX:+PerfDisableSharedMem
    -XX:+AlwaysPreTouch
    -Djava.net.preferIPv4Stack=true -Dchronicle.analytics.disable=true
    -XX:+UseG1GC -XX:+ParallelRefProcEnabled -XX:MaxTenuringThreshold=1 -XX:G1HeapRegionSize=16m
    -XX:G1RSetUpdatingPauseTimePercent=5 -XX:MaxGCPauseMillis=300
    -XX:InitiatingHeapOccupancyPercent=70 -Djdk.attach.allowAttachSelf=true
    --add-exports java.base/jdk.internal.misc=ALL-UNNAMED
    --add-exports java.management.rmi/com.sun.jmx.remote.internal.rmi=ALL-UNNAMED
    --add-exports java.management/com.sun.jmx.remote.security=ALL-UNNAMED
    --add-exports java.rmi/sun.rmi.registry=ALL-UNNAMED
    --add-exports java.rmi/sun.rmi.server=ALL-UNNAMED
    --add-exports java.sql/java.sql=ALL-UNNAMED
    --add-exports java.base/java.lang.ref=ALL-UNNAMED
    --add-exports jdk.unsupported/sun.misc=ALL-UNNAMED
    --add-opens java.base/java.lang.module=ALL-UNNAMED
    --add-opens java.base/jdk.internal.loader=ALL-UNNAMED
    --add-opens java.base/jdk.internal.ref=ALL-UNNAMED
    --add-opens java.base/jdk.internal.reflect=ALL-UNNAMED
    --add-opens java.base/jdk.internal.math=ALL-UNNAMED
    --add-opens java.base/jdk.internal.module=ALL-UNNAMED
    --add-opens java.base/jdk.internal.util.jar=ALL-UNNAMED
    --add-opens jdk.management/com.sun.management.internal=ALL-UNNAMED
    --add-opens java.base/sun.nio.ch=ALL-UNNAMED
    --add-opens java.base/java.io=ALL-UNNAMED
    --add-opens java.base/java.lang.reflect=ALL-UNNAMED
    --add-opens java.base/java.lang=ALL-UNNAMED
    --add-opens java.base/java.util=ALL-UNNAMED
    --add-opens java.base/java.nio=ALL-UNNAMED
    -Dio.netty.tryReflectionSetAccessible=true
    -Dio.netty.allocator.useCacheForAllThreads=true
    -Dio.netty.allocator.maxOrder=11
    --add-exports jdk.attach/sun.tools.attach=ALL-UNNAMED
    --add-exports jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED
    --add-opens jdk.compiler/com.sun.tools.javac=ALL-UNNAMED
    "-Xlog:gc=info,heap*=trace,age*=debug,safepoint=info,promotion*=trace:file=$dir/logs/gc.log:time,uptime,pid,tid,level:filecount=10,filesize=10485760"
    "-Xms$heap" "-Xmx$heap"
    "-javaagent:$CASSANDRA_LIB/jamm-0.4.0.jar"
    "-XX:OnOutOfMemoryError=kill -9 %p"
    "-Dlogback.configurationFile=$dir/conf/logback.xml"
    "-Dcassandra.logdir=$dir/logs"
    "-Dcassandra.storagedir=$dir"
    -Dcassandra-foreground=yes
    "-Dcassandra.config=file://$dir/conf/cassandra.yaml"
    "-Dcassandra.jmx.local.port=$jmx" -Dcom.sun.management.jmxremote.authenticate=false
    "${extra[@]}"
  )
  log "starting Cassandra 5.0.4 (cql $cql, storage $storage, jmx $jmx, heap $heap)"
  t0=$(now)
  # shellcheck disable=SC2046
  env $(shim_env cassandra) MALLOC_ARENA_MAX=4 "${SERVER_PIN[@]}" \
    java "${opts[@]}" -cp "$dir/conf:$CASSANDRA_LIB/*" org.apache.cassandra.service.CassandraDaemon \
    >> "$OUT/raw/cassandra/stdout.log" 2>&1 < /dev/null &
  CASSANDRA_PID=$!
  register_pid "$CASSANDRA_PID" cassandra
  await_ready cassandra cql "$cql" "$CASSANDRA_PID" "$t0"
}

# shellcheck source=cassandra-client-flags.sh
. "$(dirname "${BASH_SOURCE[0]}")/cassandra-client-flags.sh"

# cassandra_nodetool JMX ARGS...: Cassandra's own nodetool (the NodeTool class in
# cassandra-all), over local JMX.
cassandra_nodetool() {
  local jmx=$1
  shift
  # user.home keeps its history file
  # (~/.cassandra/nodetool.history) in the scratch directory.
  bounded "${STEP_TIMEOUT:-300}" java -Xmx256m -Duser.home="$WORK" "${CASSANDRA_CLIENT_FLAGS[@]}" \
    -cp "$CASSANDRA_LIB/*" org.apache.cassandra.tools.NodeTool -h 127.0.0.1 -p "$jmx" "$@"
}

# start_redis PORT: sets REDIS_PID. AOF on, appendfsync everysec, no RDB snapshots.
start_redis() {
  local port=$1 dir="$WORK/redis" t0
  mkdir -p "$OUT/raw/redis" "$dir"
  log "starting Redis (port $port, appendfsync everysec)"
  t0=$(now)
  # shellcheck disable=SC2046
  env $(shim_env redis) "${SERVER_PIN[@]}" redis-server --port "$port" --bind 127.0.0.1 \
    --protected-mode yes --save '' --appendonly yes --appendfsync everysec --dir "$dir" \
    --daemonize no --logfile "$dir/redis.log" >> "$OUT/raw/redis/stdout.log" 2>&1 < /dev/null &
  REDIS_PID=$!
  register_pid "$REDIS_PID" redis
  await_ready redis resp "$port" "$REDIS_PID" "$t0"
}
