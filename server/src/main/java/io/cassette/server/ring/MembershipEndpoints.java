package io.cassette.server.ring;

import io.cassette.coordinator.ring.repair.StreamProgress;
import io.cassette.server.http.AdminHttpServer;
import io.cassette.server.http.AdminHttpServer.Request;
import io.cassette.server.http.AdminHttpServer.Response;
import io.cassette.server.http.JsonWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Ring changes and streaming over the admin port (Cassandra does them over JMX):
 * <ul>
 *   <li>{@code POST /api/ringchange} ({@code op=decommission}, or {@code op=removenode&hostId=ID})
 *       starts it on its own thread and answers {@code {"id": N}}; {@code GET /api/ringchange?id=N&from=K}
 *       answers its progress lines from the K-th on, {@code done}, and {@code error} when refused or failed;
 *   <li>{@code GET /api/netstats}: the mode and the streams in progress (nodetool netstats);
 *   <li>{@code GET|POST /api/streamthroughput} ({@code bytes}): the outbound cap, changed live.
 * </ul>
 */
public final class MembershipEndpoints {
  static final int KEPT = 16;

  private final RingNode ring;
  private final Map<Integer, Run> runs = new ConcurrentHashMap<>();
  private final AtomicInteger ids = new AtomicInteger();

  private MembershipEndpoints(RingNode ring) {
    this.ring = ring;
  }

  public static void register(AdminHttpServer http, RingNode ring) {
    MembershipEndpoints e = new MembershipEndpoints(ring);
    http.register("/api/ringchange", req -> req.method().equals("POST") ? e.start(req) : e.progress(req));
    http.register("/api/netstats", e::netstats);
    http.register("/api/streamthroughput", e::throughput);
  }

  private static final class Run {
    final List<Long> times = new ArrayList<>();
    final List<String> lines = new ArrayList<>();
    volatile boolean done;
    volatile String error;

    synchronized void add(String line) {
      lines.add(line);
      times.add(System.currentTimeMillis());
    }
  }

  private Response start(Request req) {
    String op = first(req.parameters(), "op");
    Consumer<Consumer<String>> work;
    if ("decommission".equals(op)) {
      work = ring::decommission;
    } else if ("removenode".equals(op)) {
      UUID host;
      try {
        host = UUID.fromString(String.valueOf(first(req.parameters(), "hostId")));
      } catch (IllegalArgumentException ex) {
        return new Response(400, "application/json", JsonWriter.error("Host ID must be a UUID, not '"
            + first(req.parameters(), "hostId") + "'"));
      }
      work = progress -> ring.removeNode(host, progress);
    } else {
      return new Response(400, "application/json", JsonWriter.error("Unknown ring change '" + op + "'"));
    }
    int id = ids.incrementAndGet();
    Run run = new Run();
    runs.put(id, run);
    runs.keySet().removeIf(k -> k <= id - KEPT);
    Thread t = new Thread(() -> {
      try {
        work.accept(run::add);
      } catch (RuntimeException ex) {
        run.error = ex.getMessage() == null ? ex.toString() : ex.getMessage();
      } finally {
        run.done = true;
      }
    }, "cassette-" + op + "-" + id);
    t.setDaemon(true);
    t.start();
    return Response.json(new JsonWriter().beginObject().field("id", id).endObject().toString());
  }

  private Response progress(Request req) {
    Run run;
    int from;
    try {
      run = runs.get(Integer.parseInt(first(req.parameters(), "id")));
      String f = first(req.parameters(), "from");
      from = f == null ? 0 : Integer.parseInt(f);
    } catch (NumberFormatException ex) {
      return new Response(400, "application/json", JsonWriter.error("id and from must be numbers"));
    }
    if (run == null) {
      return new Response(404, "application/json", JsonWriter.error("Unknown ring change"));
    }
    boolean done = run.done;
    JsonWriter w = new JsonWriter().beginObject().name("lines").beginArray();
    int next;
    synchronized (run) {
      for (int i = Math.max(0, from); i < run.lines.size(); i++) {
        w.beginObject().field("time", run.times.get(i)).field("text", run.lines.get(i)).endObject();
      }
      next = run.lines.size();
    }
    w.endArray().field("next", next).field("done", done);
    if (done && run.error != null) {
      w.field("error", run.error);
    }
    return Response.json(w.endObject().toString());
  }

  private Response netstats(Request req) {
    JsonWriter w = new JsonWriter().beginObject().field("mode", ring.mode());
    var repair = ring.repair();
    w.name("outgoing").beginArray();
    if (repair != null) {
      for (StreamProgress.Outgoing o : repair.progress().outgoing()) {
        w.beginObject().field("id", o.id).field("purpose", o.purpose).field("peer", o.peer.getHostAddress())
            .field("keyspace", o.keyspace).field("table", o.table).field("bytes", o.bytes())
            .field("partitions", o.partitions()).field("started", o.startedMillis).field("done", o.done()).endObject();
      }
    }
    w.endArray().name("incoming").beginArray();
    if (repair != null) {
      for (StreamProgress.Incoming in : repair.progress().incoming()) {
        w.beginObject().field("peer", in.peer.getHostAddress()).field("bytes", in.bytes())
            .field("batches", in.batches()).field("refused", in.refused()).field("active", in.active()).endObject();
      }
    }
    w.endArray();
    if (repair != null) {
      w.field("totalSent", repair.progress().totalSent()).field("totalReceived", repair.progress().totalReceived())
          .field("throughputBytesPerSecond", repair.throttle().rate());
    }
    return Response.json(w.endObject().toString());
  }

  private Response throughput(Request req) {
    var repair = ring.repair();
    if (repair == null) {
      return new Response(503, "application/json", JsonWriter.error("streaming is not started"));
    }
    if (req.method().equals("POST")) {
      try {
        repair.throttle().rate(Long.parseLong(String.valueOf(first(req.parameters(), "bytes"))));
      } catch (NumberFormatException ex) {
        return new Response(400, "application/json", JsonWriter.error("bytes must be a whole number"));
      }
    }
    return Response.json(new JsonWriter().beginObject().field("throughputBytesPerSecond", repair.throttle().rate())
        .endObject().toString());
  }

  private static String first(Map<String, List<String>> p, String name) {
    List<String> v = p.get(name);
    return v == null || v.isEmpty() ? null : v.get(0);
  }
}
