package io.cassette.resp.command;

import static io.cassette.resp.command.CommandSpec.ADMIN;
import static io.cassette.resp.command.CommandSpec.FAST;
import static io.cassette.resp.command.CommandSpec.LOADING;
import static io.cassette.resp.command.CommandSpec.READONLY;
import static io.cassette.resp.command.CommandSpec.STALE;
import static io.cassette.resp.command.CommandSpec.WRITE;

import io.cassette.metrics.LatencyHistogram;
import io.cassette.metrics.LatencyMonitor;
import io.cassette.metrics.SlowLog;
import io.cassette.metrics.SlowLogEntry;
import io.cassette.resp.keyspace.Database;
import io.cassette.resp.keyspace.RedisLayout;
import io.cassette.resp.protocol.Reply;
import io.cassette.resp.server.ServerContext;
import io.cassette.resp.session.Session;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Server commands: INFO, COMMAND, CONFIG, DBSIZE, TIME, FLUSHDB, FLUSHALL, LATENCY, SLOWLOG. */
final class ServerCommands {
  private static final List<String> DEFAULT_SECTIONS = List.of("server", "clients", "memory",
      "persistence", "stats", "replication", "cpu", "keyspace");

  private ServerCommands() {}

  static void register(CommandTable t) {
    t.add("info", -1, LOADING | STALE, ServerCommands::info);
    t.add("command", -1, LOADING | STALE, ServerCommands::command);
    t.add("config", -2, ADMIN | LOADING | STALE, ServerCommands::config);
    t.add("dbsize", 1, READONLY | FAST, c -> {
      if (c.server.ring != null && c.mayBlock && c.server.ring.dbsize(c.session)) {
        return; // each node counts its own ranges; the sum is answered when all have
      }
      Database d = c.server.keyspace.existing(c.session.db);
      c.reply().integer(d == null ? 0 : d.size());
    });
    t.add("time", 1, LOADING | STALE | FAST, c -> {
      long micros = System.currentTimeMillis() * 1000 + (System.nanoTime() / 1000) % 1000;
      c.reply().array(2);
      c.reply().bulk(Long.toString(micros / 1_000_000));
      c.reply().bulk(Long.toString(micros % 1_000_000));
    });
    t.add("flushdb", -1, WRITE, c -> {
      flushMode(c);
      c.server.watches.touchExisting(c.session.db, (db, key) -> exists(c, db, key));
      Database d = c.server.keyspace.existing(c.session.db);
      if (d != null) {
        d.flush();
      }
      if (c.server.ring != null) {
        c.server.ring.flushed(c.session.db);
      }
      c.server.blocking.signalWaitersIn(c.session.db, "xreadgroup");
      c.reply().ok();
    });
    t.add("flushall", -1, WRITE, c -> {
      flushMode(c);
      c.server.watches.touchExisting(-1, (db, key) -> exists(c, db, key));
      for (int i = 0; i < RedisLayout.DATABASES; i++) {
        Database d = c.server.keyspace.existing(i);
        if (d != null) {
          d.flush();
        }
      }
      if (c.server.ring != null) {
        c.server.ring.flushed(-1);
      }
      c.server.blocking.signalWaitersIn(-1, "xreadgroup");
      c.reply().ok();
    });
    t.add("latency", -2, ADMIN | LOADING | STALE, ServerCommands::latency);
    t.add("slowlog", -2, ADMIN | LOADING | STALE, ServerCommands::slowlog);
    // SAVE and SHUTDOWN are refused inside MULTI as Redis refuses them (its no-multi flag:
    // the transaction is then aborted at EXEC); they run at once instead of being queued.
    t.add("save", 1, ADMIN | CommandSpec.NO_QUEUE | CommandSpec.NO_MULTI, c -> {
      refuseInMulti(c);
      c.reply().ok(); // every acknowledged write is in the engine's commit log already
    });
    t.add("shutdown", -1, ADMIN | LOADING | STALE | CommandSpec.NO_QUEUE | CommandSpec.NO_MULTI, c -> {
      refuseInMulti(c);
      throw new RedisException("ERR SHUTDOWN is not available through the Redis door: "
          + "stop the node with its service (bin/cassette, systemctl)");
    });
    t.add("lastsave", 1, LOADING | STALE | FAST,
        c -> c.reply().integer(c.server.startMillis / 1000));
  }

  /** Redis's reply to a no-multi command sent inside MULTI; EXEC then aborts. */
  private static void refuseInMulti(CommandContext c) {
    if (c.session.inMulti) {
      c.session.multiFailed = true;
      throw new RedisException("ERR Command not allowed inside a transaction");
    }
  }

  /** Whether a watched key exists before a flush (on a ring: assumed, the key may live elsewhere). */
  private static boolean exists(CommandContext c, int db, byte[] key) {
    if (c.server.ring != null) {
      return true;
    }
    Database d = c.server.keyspace.existing(db);
    return d != null && d.meta(key) != null;
  }

  private static void flushMode(CommandContext c) {
    if (c.argc() > 2 || (c.argc() == 2 && !Args.is(c.arg(1), "async")
        && !Args.is(c.arg(1), "sync"))) {
      throw new RedisException(Errors.SYNTAX);
    }
  }

  private static void info(CommandContext c) {
    List<String> sections = new ArrayList<>();
    for (int i = 1; i < c.argc(); i++) {
      sections.add(c.argString(i).toLowerCase(Locale.ROOT));
    }
    boolean all = sections.contains("all") || sections.contains("everything");
    if (sections.isEmpty() || sections.contains("default")) {
      sections.addAll(DEFAULT_SECTIONS);
    }
    if (all) {
      sections.addAll(DEFAULT_SECTIONS);
      sections.add("latencystats");
      sections.add("commandstats");
    }
    StringBuilder sb = new StringBuilder();
    ServerContext s = c.server;
    long now = System.currentTimeMillis();
    if (sections.contains("server")) {
      sb.append("# Server\r\nredis_version:").append(ConnectionCommands.VERSION)
          .append("\r\nredis_git_sha1:00000000\r\nredis_git_dirty:0\r\nredis_mode:standalone\r\n")
          .append("os:").append(System.getProperty("os.name")).append(' ')
          .append(System.getProperty("os.arch")).append("\r\narch_bits:64\r\n")
          .append("server_name:cassette\r\nprocess_id:").append(ProcessHandle.current().pid())
          .append("\r\nrun_id:").append(s.runId).append("\r\ntcp_port:").append(s.tcpPort)
          .append("\r\nuptime_in_seconds:").append((now - s.startMillis) / 1000)
          .append("\r\nuptime_in_days:").append((now - s.startMillis) / 86_400_000)
          .append("\r\nhz:").append(s.config.get("hz")).append("\r\nexecutable:java\r\n")
          .append("java_version:").append(System.getProperty("java.version")).append("\r\n\r\n");
    }
    if (sections.contains("clients")) {
      int pubsub = 0;
      for (Session x : s.clients.values()) {
        if (x.subscriptions() > 0) {
          pubsub++;
        }
      }
      sb.append("# Clients\r\nconnected_clients:").append(s.clients.size())
          .append("\r\nmaxclients:").append(s.config.get("maxclients"))
          .append("\r\nblocked_clients:").append(s.blocking.blockedClients())
          .append("\r\npubsub_clients:").append(pubsub).append("\r\n\r\n");
    }
    if (sections.contains("memory")) {
      Runtime rt = Runtime.getRuntime();
      long used = rt.totalMemory() - rt.freeMemory();
      sb.append("# Memory\r\nused_memory:").append(used).append("\r\nused_memory_human:")
          .append(used / (1024 * 1024)).append("M\r\nused_memory_peak:").append(rt.totalMemory())
          .append("\r\nmaxmemory:").append(s.config.get("maxmemory"))
          .append("\r\njvm_heap_max:").append(rt.maxMemory())
          .append("\r\nmaxmemory_policy:noeviction\r\nmem_allocator:jvm\r\n");
      if (s.scripts != null) {
        s.scripts.info(sb); // number_of_cached_scripts, number_of_functions...
      }
      sb.append("\r\n");
    }
    if (sections.contains("persistence")) {
      sb.append("# Persistence\r\nloading:0\r\nrdb_changes_since_last_save:0\r\n")
          .append("rdb_bgsave_in_progress:0\r\nrdb_last_save_time:").append(s.startMillis / 1000)
          .append("\r\naof_enabled:1\r\naof_rewrite_in_progress:0\r\naof_last_write_status:ok")
          .append("\r\naof_fsync:").append(s.config.get("appendfsync")).append("\r\n\r\n");
    }
    if (sections.contains("stats")) {
      sb.append("# Stats\r\ntotal_connections_received:").append(s.stats.connectionsReceived)
          .append("\r\ntotal_commands_processed:").append(s.stats.commandsProcessed)
          .append("\r\ntotal_net_input_bytes:").append(s.stats.netInputBytes)
          .append("\r\ntotal_net_output_bytes:").append(s.stats.netOutputBytes)
          .append("\r\nrejected_connections:").append(s.stats.connectionsRejected)
          .append("\r\nexpired_keys:").append(s.stats.expiredKeys)
          .append("\r\nevicted_keys:0\r\nkeyspace_hits:").append(s.stats.keyspaceHits)
          .append("\r\nkeyspace_misses:").append(s.stats.keyspaceMisses)
          .append("\r\npubsub_channels:").append(s.pubsub.channelCount())
          .append("\r\npubsub_patterns:").append(s.pubsub.patternCount())
          .append("\r\nmigrate_cached_sockets:0") // MIGRATE keeps no connections (DumpCommands)
          .append("\r\nclient_output_buffer_limit_disconnections:")
          .append(s.stats.pubsubClientsKilled)
          .append("\r\ntotal_error_replies:").append(s.stats.errorReplies).append("\r\n\r\n");
    }
    if (sections.contains("errorstats") || all) {
      sb.append("# Errorstats\r\n");
      s.stats.errorCodes.forEach((code, n) ->
          sb.append("errorstat_").append(code).append(":count=").append(n).append("\r\n"));
      sb.append("\r\n");
    }
    if (sections.contains("replication")) {
      sb.append("# Replication\r\nrole:master\r\nconnected_slaves:0\r\n\r\n");
    }
    if (sections.contains("cpu")) {
      double cpu = ManagementFactory.getRuntimeMXBean().getUptime() / 1000.0;
      var os = ManagementFactory.getOperatingSystemMXBean();
      if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
        cpu = sun.getProcessCpuTime() / 1e9;
      }
      sb.append("# CPU\r\nused_cpu_sys:0.000000\r\nused_cpu_user:")
          .append(String.format(Locale.ROOT, "%.6f", cpu)).append("\r\n\r\n");
    }
    if (sections.contains("latencystats")) {
      sb.append("# Latencystats\r\n");
      for (Map.Entry<String, LatencyHistogram> e
          : new java.util.TreeMap<>(s.requests.latencyByType()).entrySet()) {
        io.cassette.metrics.Percentiles p = e.getValue().snapshot().allTime();
        sb.append("latency_percentiles_usec_").append(e.getKey()).append(":p50=")
            .append(p.p50()).append(".000,p99=").append(p.p99()).append(".000,p99.9=")
            .append(p.p999()).append(".000\r\n");
      }
      sb.append("\r\n");
    }
    if (sections.contains("commandstats")) {
      sb.append("# Commandstats\r\n");
      for (Map.Entry<String, LatencyHistogram> e
          : new java.util.TreeMap<>(s.requests.latencyByType()).entrySet()) {
        long[] sofar = commandCounts(s, e.getKey(), e.getValue());
        long[] zero = s.stats.commandBaseline.getOrDefault(e.getKey(), new long[3]);
        long calls = sofar[0] - zero[0];
        long usec = sofar[1] - zero[1];
        long failed = sofar[2] - zero[2];
        if (calls <= 0 && failed <= 0) {
          continue; // not called since CONFIG RESETSTAT: Redis lists only commands with calls
        }
        sb.append("cmdstat_").append(e.getKey()).append(":calls=").append(calls)
            .append(",usec=").append(usec).append(",usec_per_call=")
            .append(String.format(Locale.ROOT, "%.2f", calls <= 0 ? 0.0 : (double) usec / calls))
            .append(",rejected_calls=0,failed_calls=").append(failed)
            .append("\r\n");
      }
      sb.append("\r\n");
    }
    if (sections.contains("keyspace")) {
      sb.append("# Keyspace\r\n");
      for (int i = 0; i < RedisLayout.DATABASES; i++) {
        Database d = s.keyspace.existing(i);
        if (d != null) {
          long n = d.size();
          if (n > 0) {
            sb.append("db").append(i).append(":keys=").append(n)
                .append(",expires=0,avg_ttl=0\r\n");
          }
        }
      }
      sb.append("\r\n");
    }
    String text = sb.toString();
    if (text.endsWith("\r\n\r\n")) {
      text = text.substring(0, text.length() - 2);
    }
    c.reply().verbatim(text);
  }

  /** A command's all-time calls, microseconds and failed calls, from the node's request metrics. */
  private static long[] commandCounts(ServerContext s, String name, LatencyHistogram h) {
    io.cassette.metrics.LatencySnapshot snap = h.snapshot();
    var failed = s.requests.errorsByType().get(name);
    return new long[] {snap.count(), snap.sumMicros(), failed == null ? 0 : failed.value()};
  }

  private static void command(CommandContext c) {
    Reply r = c.reply();
    if (c.argc() == 1) {
      r.array(c.server.commands.size());
      for (CommandSpec spec : c.server.commands.all()) {
        commandInfo(r, spec);
      }
      return;
    }
    String sub = c.argString(1).toLowerCase(Locale.ROOT);
    switch (sub) {
      case "count" -> {
        ConnectionCommands.arity(c, 2, "command|count");
        r.integer(c.server.commands.size());
      }
      case "list" -> {
        r.array(c.server.commands.size());
        for (CommandSpec spec : c.server.commands.all()) {
          r.bulk(spec.name());
        }
      }
      case "info" -> {
        if (c.argc() == 2) {
          r.array(c.server.commands.size());
          for (CommandSpec spec : c.server.commands.all()) {
            commandInfo(r, spec);
          }
          return;
        }
        r.array(c.argc() - 2);
        for (int i = 2; i < c.argc(); i++) {
          CommandSpec spec = c.server.commands.get(c.argString(i).toLowerCase(Locale.ROOT));
          if (spec == null) {
            r.nullArray();
          } else {
            commandInfo(r, spec);
          }
        }
      }
      case "docs" -> {
        List<CommandSpec> specs = new ArrayList<>();
        if (c.argc() == 2) {
          specs.addAll(c.server.commands.all());
        } else {
          for (int i = 2; i < c.argc(); i++) {
            CommandSpec spec = c.server.commands.get(c.argString(i).toLowerCase(Locale.ROOT));
            if (spec != null) {
              specs.add(spec);
            }
          }
        }
        r.map(specs.size());
        for (CommandSpec spec : specs) {
          r.bulk(spec.name());
          r.map(3);
          r.bulk("summary");
          r.bulk(spec.name().toUpperCase(Locale.ROOT) + " as in Redis 7.0");
          r.bulk("since");
          r.bulk("1.0.0");
          r.bulk("group");
          r.bulk("generic");
        }
      }
      case "getkeys" -> {
        if (c.argc() < 3) {
          throw new RedisException(Errors.wrongArity("command|getkeys"));
        }
        CommandSpec spec = c.server.commands.get(c.argString(2).toLowerCase(Locale.ROOT));
        if (spec == null) {
          throw new RedisException("ERR Invalid command specified");
        }
        int argc = c.argc() - 2;
        if (!spec.arityOk(argc)) {
          throw new RedisException("ERR Invalid number of arguments specified for command");
        }
        List<byte[]> movable = io.cassette.resp.script.ScriptCommands.keyArguments(spec.name(),
            java.util.Arrays.copyOfRange(c.args, 2, c.argc()));
        if (movable == null) { // ZUNION & co., ZMPOP, LMPOP: numkeys, then the keys
          movable = MovableKeys.of(spec.name(), java.util.Arrays.copyOfRange(c.args, 2, c.argc()));
        }
        if (movable == null) { // XREAD/XREADGROUP: the keys after STREAMS
          movable = io.cassette.resp.stream.StreamCommands.keysOf(spec.name(),
              java.util.Arrays.copyOfRange(c.args, 2, c.argc()));
        }
        if (movable != null) { // EVAL/FCALL: numkeys, then the keys
          r.array(movable.size());
          for (byte[] k : movable) {
            r.bulk(k);
          }
          return;
        }
        if (spec.firstKey() == 0) {
          throw new RedisException("ERR The command has no key arguments");
        }
        int last = spec.lastKey() < 0 ? argc + spec.lastKey() : spec.lastKey();
        List<byte[]> keys = new ArrayList<>();
        for (int i = spec.firstKey(); i <= last && i < argc; i += spec.step()) {
          keys.add(c.arg(i + 2));
        }
        r.array(keys.size());
        for (byte[] k : keys) {
          r.bulk(k);
        }
      }
      case "help" -> {
        r.array(1);
        r.status("COMMAND [COUNT|LIST|INFO|DOCS|GETKEYS] ...");
      }
      default -> throw new RedisException(Errors.unknownSubcommand(c.argString(1), "COMMAND"));
    }
  }

  private static void commandInfo(Reply r, CommandSpec spec) {
    r.array(10);
    r.bulk(spec.name());
    r.integer(spec.arity());
    List<String> flags = new ArrayList<>();
    if (spec.has(WRITE)) {
      flags.add("write");
    }
    if (spec.has(READONLY)) {
      flags.add("readonly");
    }
    if (spec.has(CommandSpec.DENY_OOM)) {
      flags.add("denyoom");
    }
    if (spec.has(ADMIN)) {
      flags.add("admin");
    }
    if (spec.has(CommandSpec.PUBSUB)) {
      flags.add("pubsub");
    }
    if (spec.has(CommandSpec.NO_AUTH)) {
      flags.add("no_auth");
    }
    if (spec.has(CommandSpec.BLOCKING)) {
      flags.add("blocking");
    }
    if (spec.has(LOADING)) {
      flags.add("loading");
    }
    if (spec.has(STALE)) {
      flags.add("stale");
    }
    if (spec.has(FAST)) {
      flags.add("fast");
    }
    if (spec.has(CommandSpec.NO_MULTI)) {
      flags.add("no_multi");
    }
    r.set(flags.size());
    for (String f : flags) {
      r.status(f);
    }
    r.integer(spec.firstKey());
    r.integer(spec.lastKey());
    r.integer(spec.step());
    r.set(0);
    r.set(0);
    r.emptyArray();
    r.emptyArray();
  }

  private static void config(CommandContext c) {
    String sub = c.argString(1).toLowerCase(Locale.ROOT);
    Reply r = c.reply();
    switch (sub) {
      case "get" -> {
        if (c.argc() < 3) {
          throw new RedisException(Errors.wrongArity("config|get"));
        }
        Map<String, String> found = new java.util.LinkedHashMap<>();
        for (int i = 2; i < c.argc(); i++) {
          found.putAll(c.server.config.matching(c.arg(i)));
        }
        r.map(found.size());
        for (Map.Entry<String, String> e : found.entrySet()) {
          r.bulk(e.getKey());
          r.bulk(e.getValue());
        }
      }
      case "set" -> {
        if (c.argc() < 4 || c.argc() % 2 != 0) {
          throw new RedisException(Errors.wrongArity("config|set"));
        }
        for (int i = 2; i < c.argc(); i += 2) {
          c.server.config.set(c.argString(i), c.argString(i + 1));
        }
        r.ok();
      }
      case "resetstat" -> {
        ConnectionCommands.arity(c, 2, "config|resetstat");
        c.server.stats.reset();
        for (Map.Entry<String, LatencyHistogram> e : c.server.requests.latencyByType().entrySet()) {
          c.server.stats.commandBaseline.put(e.getKey(), commandCounts(c.server, e.getKey(), e.getValue()));
        }
        r.ok();
      }
      case "rewrite" -> throw new RedisException("ERR The server is running without a config file");
      case "help" -> {
        r.array(1);
        r.status("CONFIG GET <pattern> | SET <name> <value> | RESETSTAT");
      }
      default -> throw new RedisException(Errors.unknownSubcommand(c.argString(1), "CONFIG"));
    }
  }

  private static void latency(CommandContext c) {
    String sub = c.argString(1).toLowerCase(Locale.ROOT);
    Reply r = c.reply();
    switch (sub) {
      case "latest" -> {
        List<LatencyMonitor.Latest> latest = c.server.latency.latest();
        r.array(latest.size());
        for (LatencyMonitor.Latest l : latest) {
          r.array(4);
          r.bulk(l.event());
          r.integer(l.epochSecond());
          r.integer(l.latestMillis());
          r.integer(l.maxMillis());
        }
      }
      case "history" -> {
        ConnectionCommands.arity(c, 3, "latency|history");
        List<LatencyMonitor.Sample> samples = c.server.latency.history(c.argString(2));
        r.array(samples.size());
        for (LatencyMonitor.Sample s : samples) {
          r.array(2);
          r.integer(s.epochSecond());
          r.integer(s.millis());
        }
      }
      case "reset" -> {
        String[] names = new String[c.argc() - 2];
        for (int i = 2; i < c.argc(); i++) {
          names[i - 2] = c.argString(i);
        }
        r.integer(c.server.latency.reset(names));
      }
      case "doctor" -> r.verbatim(c.server.metrics.latencyDoctor().report());
      case "histogram" -> latencyHistogram(c);
      case "help" -> {
        r.array(1);
        r.status("LATENCY LATEST | HISTORY <event> | RESET [<event> ...] | DOCTOR | HISTOGRAM [<command> ...]");
      }
      default -> throw new RedisException(Errors.unknownSubcommand(c.argString(1), "LATENCY"));
    }
  }

  /** Redis 7's LATENCY HISTOGRAM: per command, calls and cumulative power-of-two buckets. */
  private static void latencyHistogram(CommandContext c) {
    Map<String, LatencyHistogram> all = c.server.requests.latencyByType();
    Map<String, LatencyHistogram> chosen = new java.util.TreeMap<>();
    if (c.argc() == 2) {
      chosen.putAll(all);
    } else {
      for (int i = 2; i < c.argc(); i++) {
        String name = c.argString(i).toLowerCase(Locale.ROOT);
        if (all.containsKey(name)) {
          chosen.put(name, all.get(name));
        }
      }
    }
    Reply r = c.reply();
    r.map(chosen.size());
    for (Map.Entry<String, LatencyHistogram> e : chosen.entrySet()) {
      List<long[]> buckets = e.getValue().cumulativePowerOfTwoBuckets();
      r.bulk(e.getKey());
      r.map(2);
      r.bulk("calls");
      r.integer(e.getValue().count());
      r.bulk("histogram_usec");
      r.map(buckets.size());
      for (long[] b : buckets) {
        r.integer(b[0]);
        r.integer(b[1]);
      }
    }
  }

  private static void slowlog(CommandContext c) {
    String sub = c.argString(1).toLowerCase(Locale.ROOT);
    Reply r = c.reply();
    switch (sub) {
      case "get" -> {
        int count = SlowLog.DEFAULT_GET_COUNT;
        if (c.argc() == 3) {
          long n = Args.parseLong(c.arg(2));
          count = n < 0 ? -1 : (int) Math.min(n, Integer.MAX_VALUE);
        } else if (c.argc() > 3) {
          throw new RedisException(Errors.wrongArity("slowlog|get"));
        }
        List<SlowLogEntry> entries = c.server.slowlog.get(count);
        r.array(entries.size());
        for (SlowLogEntry e : entries) {
          r.array(6);
          r.integer(e.id());
          r.integer(e.epochSecond());
          r.integer(e.durationMicros());
          r.array(e.args().size());
          for (String a : e.args()) {
            r.bulk(a);
          }
          r.bulk(e.client());
          r.bulk(e.clientName());
        }
      }
      case "len" -> r.integer(c.server.slowlog.length());
      case "reset" -> {
        c.server.slowlog.reset();
        r.ok();
      }
      case "help" -> {
        r.array(1);
        r.status("SLOWLOG GET [<count>] | LEN | RESET");
      }
      default -> throw new RedisException(Errors.unknownSubcommand(c.argString(1), "SLOWLOG"));
    }
  }
}
