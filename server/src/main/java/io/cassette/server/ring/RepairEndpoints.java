package io.cassette.server.ring;

import io.cassette.coordinator.ring.repair.RepairException;
import io.cassette.coordinator.ring.repair.RepairOptions;
import io.cassette.coordinator.ring.repair.RepairService;
import io.cassette.server.http.AdminHttpServer;
import io.cassette.server.http.AdminHttpServer.Request;
import io.cassette.server.http.AdminHttpServer.Response;
import io.cassette.server.http.JsonWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code nodetool repair} over the admin port. Cassandra's nodetool starts a repair over JMX
 * and prints its progress notifications; here:
 * <ul>
 *   <li>{@code POST /api/repair} ({@code keyspace}, {@code table}..., {@code pr}, {@code full})
 *       starts a repair on its own thread and answers {@code {"id": N}};
 *   <li>{@code GET /api/repair?id=N&from=K} answers the progress lines from the K-th on (each
 *       with the time it happened, ms), {@code next}, {@code done}, and {@code error} when it failed.
 * </ul>
 * The last few repairs are kept so a nodetool that reconnects can read the end.
 */
public final class RepairEndpoints {
  /** Finished repairs kept for their progress lines. */
  static final int KEPT = 16;

  private final RepairService service;
  private final Map<Integer, Run> runs = new ConcurrentHashMap<>();
  private final AtomicInteger ids = new AtomicInteger();

  private RepairEndpoints(RepairService service) {
    this.service = service;
  }

  public static void register(AdminHttpServer http, RepairService service) {
    RepairEndpoints e = new RepairEndpoints(service);
    http.register("/api/repair", req -> req.method().equals("POST") ? e.start(req) : e.progress(req));
  }

  /** One repair's progress. */
  private static final class Run {
    final List<long[]> times = new ArrayList<>();
    final List<String> lines = new ArrayList<>();
    volatile boolean done;
    volatile String error;

    synchronized void add(String line) {
      lines.add(line);
      times.add(new long[] {System.currentTimeMillis()});
    }
  }

  private Response start(Request req) {
    Map<String, List<String>> p = req.parameters();
    String keyspace = first(p, "keyspace");
    List<String> tables = p.getOrDefault("table", List.of());
    RepairOptions options;
    try {
      options = RepairOptions.of(keyspace == null || keyspace.isEmpty() ? null : keyspace, tables,
          "true".equals(first(p, "pr")), "true".equals(first(p, "full")));
    } catch (IllegalArgumentException ex) {
      return new Response(400, "application/json", JsonWriter.error(ex.getMessage()));
    }
    int id = ids.incrementAndGet();
    Run run = new Run();
    runs.put(id, run);
    runs.keySet().removeIf(k -> k <= id - KEPT);
    Thread t = new Thread(() -> {
      try {
        service.repair(options, run::add);
      } catch (RepairException ex) {
        run.error = ex.getMessage();
      } catch (RuntimeException ex) {
        run.error = ex.toString();
        run.add("Repair failed with error " + ex);
      } finally {
        run.done = true;
      }
    }, "cassette-repair-command-" + id);
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
      return new Response(404, "application/json", JsonWriter.error("Unknown repair"));
    }
    boolean done = run.done; // read before the lines: every line of a finished repair is then seen
    JsonWriter w = new JsonWriter().beginObject().name("lines").beginArray();
    int next;
    synchronized (run) {
      for (int i = Math.max(0, from); i < run.lines.size(); i++) {
        w.beginObject().field("time", run.times.get(i)[0]).field("text", run.lines.get(i)).endObject();
      }
      next = run.lines.size();
    }
    w.endArray().field("next", next).field("done", done);
    if (done && run.error != null) {
      w.field("error", run.error);
    }
    return Response.json(w.endObject().toString());
  }

  private static String first(Map<String, List<String>> p, String name) {
    List<String> v = p.get(name);
    return v == null || v.isEmpty() ? null : v.get(0);
  }
}
