package io.cassette.server.ring;

import io.cassette.coordinator.ring.repair.StreamProgress;
import io.cassette.server.http.AdminHttpServer;
import io.cassette.server.http.AdminHttpServer.Request;
import io.cassette.server.http.AdminHttpServer.Response;
import io.cassette.server.http.JsonWriter;
import java.util.List;
import java.util.Map;
import java.util.UUID;
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
  private final RingNode ring;
  private final AdminJobs jobs = new AdminJobs("ring change");

  private MembershipEndpoints(RingNode ring) {
    this.ring = ring;
  }

  public static void register(AdminHttpServer http, RingNode ring) {
    MembershipEndpoints e = new MembershipEndpoints(ring);
    http.register("/api/ringchange", req -> req.method().equals("POST") ? e.start(req) : e.jobs.progress(req));
    http.register("/api/netstats", e::netstats);
    http.register("/api/streamthroughput", e::throughput);
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
    return jobs.start("cassette-" + op + "-", work,
        (ex, progress) -> ex.getMessage() == null ? ex.toString() : ex.getMessage());
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
    return AdminJobs.first(p, name);
  }
}
