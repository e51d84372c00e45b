package io.cassette.cql.language.system;

import io.cassette.cql.TraceSession;
import io.cassette.cql.language.NodeInfo;
import io.cassette.cql.language.schema.TableMetadata;
import io.cassette.cql.language.schema.TimeUuid;
import io.cassette.cql.language.types.CollectionCodec;
import io.cassette.cql.language.types.Values;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The node's recent traces, served as {@code system_traces.sessions} and
 * {@code system_traces.events} with Cassandra's columns and values: coordinator and source are
 * this node (its storage port), durations and elapsed times in µs, event ids time-based.
 *
 * <p>Kept in memory, not on disk (a board's flash is spared the writes Cassandra makes for every
 * traced request), bounded: the oldest sessions go beyond {@link #MAX_SESSIONS}, and none is
 * kept longer than Cassandra's trace TTL of one day. They do not survive a restart.
 *
 * <p>Thread-safety: synchronized.
 */
public final class TraceStore {
  /** Sessions kept at most. */
  public static final int MAX_SESSIONS = 1000;
  /**
   * Characters of text (activities, parameters: a traced query's text appears in both) kept at
   * most, about 8 MB of heap: the oldest sessions go first, so a few huge traced statements
   * cannot hold a board's heap.
   */
  public static final long MAX_CHARS = 4L << 20;
  /** Cassandra's tracing TTL (trace_type_query_ttl): one day. */
  static final long TTL_MILLIS = 24L * 3600 * 1000;

  /** A stored session: its id, what was traced, and its size in characters. */
  private record Stored(UUID id, TraceSession session, long chars) {}

  private final NodeInfo node;
  private final LinkedHashMap<UUID, Stored> sessions = new LinkedHashMap<>();
  /** Sum of the stored sessions' sizes. */
  private long chars;

  public TraceStore(NodeInfo node) {
    this.node = node;
  }

  /** Keeps a finished session and returns its id (a time-based UUID from its start). */
  public synchronized UUID add(TraceSession session) {
    UUID id = TimeUuid.next();
    Stored stored = new Stored(id, session, size(session));
    sessions.put(id, stored);
    chars += stored.chars();
    while (sessions.size() > 1 && (sessions.size() > MAX_SESSIONS || chars > MAX_CHARS)) {
      Iterator<Stored> it = sessions.values().iterator();
      chars -= it.next().chars();
      it.remove();
    }
    return id;
  }

  /** Stored sessions (tests). */
  public synchronized int size() {
    return sessions.size();
  }

  private static long size(TraceSession s) {
    long n = 64 + s.request().length();
    for (TraceSession.Event e : s.events()) {
      n += 32 + e.activity().length() + e.thread().length();
    }
    for (Map.Entry<String, String> e : s.parameters().entrySet()) {
      n += e.getKey().length() + e.getValue().length();
    }
    return n;
  }

  private synchronized List<Stored> live(UUID only) {
    long cutoff = System.currentTimeMillis() - TTL_MILLIS;
    sessions.values().removeIf(s -> {
      boolean old = s.session().startedAtMillis() < cutoff;
      if (old) {
        chars -= s.chars();
      }
      return old;
    });
    if (only != null) {
      Stored s = sessions.get(only);
      return s == null ? List.of() : List.of(s);
    }
    return new ArrayList<>(sessions.values());
  }

  /** The rows of {@code table} (sessions or events), of one session or of all when {@code only} is null. */
  public List<Map<String, byte[]>> rows(TableMetadata table, UUID only) {
    List<Map<String, byte[]>> out = new ArrayList<>();
    byte[] coordinator = Values.ofInet(node.listenAddress());
    byte[] port = Values.ofInt(node.ring().storagePort());
    for (Stored s : live(only)) {
      TraceSession t = s.session();
      byte[] id = Values.ofUuid(s.id());
      if (table.name.equals("sessions")) {
        Map<String, byte[]> r = new HashMap<>();
        r.put("session_id", id);
        r.put("client", t.client() == null ? null : Values.ofInet(t.client()));
        r.put("command", Values.ofText(t.command()));
        r.put("coordinator", coordinator);
        r.put("coordinator_port", port);
        r.put("duration", t.durationMicros() < 0 ? null : Values.ofInt((int) Math.min(Integer.MAX_VALUE,
            t.durationMicros())));
        r.put("parameters", textMap(t.parameters()));
        r.put("request", Values.ofText(t.request()));
        r.put("started_at", Values.ofLong(t.startedAtMillis()));
        out.add(r);
      } else {
        long lsb = s.id().getLeastSignificantBits();
        long startTicks = t.startedAtMillis() * 10_000;
        long previous = Long.MIN_VALUE;
        for (TraceSession.Event e : t.events()) {
          // 100 ns ticks from the start plus the elapsed time, kept increasing so events stay in order.
          long ticks = Math.max(startTicks + e.elapsedMicros() * 10, previous + 1);
          previous = ticks;
          Map<String, byte[]> r = new HashMap<>();
          r.put("session_id", id);
          r.put("event_id", Values.ofUuid(TimeUuid.ofTicks(ticks, lsb)));
          r.put("activity", Values.ofText(e.activity()));
          r.put("source", coordinator);
          r.put("source_elapsed", Values.ofInt((int) Math.min(Integer.MAX_VALUE, e.elapsedMicros())));
          r.put("source_port", port);
          r.put("thread", Values.ofText(e.thread()));
          out.add(r);
        }
      }
    }
    return out;
  }

  private static byte[] textMap(Map<String, String> m) {
    List<byte[]> ks = new ArrayList<>();
    List<byte[]> vs = new ArrayList<>();
    for (Map.Entry<String, String> e : new TreeMap<>(m).entrySet()) {
      ks.add(Values.ofText(e.getKey()));
      vs.add(Values.ofText(e.getValue()));
    }
    return CollectionCodec.packMap(ks, vs);
  }
}
