package io.cassette.server.ring;

import io.cassette.coordinator.ring.repair.RepairException;
import io.cassette.coordinator.ring.repair.RepairOptions;
import io.cassette.coordinator.ring.repair.RepairService;
import io.cassette.server.http.AdminHttpServer;
import io.cassette.server.http.AdminHttpServer.Request;
import io.cassette.server.http.AdminHttpServer.Response;
import io.cassette.server.http.JsonWriter;
import java.util.List;
import java.util.Map;

/**
 * {@code nodetool repair} over the admin port. Cassandra's nodetool starts a repair over JMX
 * and prints its progress notifications; here:
 * <ul>
 *   <li>{@code POST /api/repair} ({@code keyspace}, {@code table}..., {@code pr}, {@code full})
 *       starts a repair on its own thread and answers {@code {"id": N}};
 *   <li>{@code GET /api/repair?id=N&from=K} answers the progress lines from the K-th on (each
 *       with the time it happened, ms), {@code next}, {@code done}, and {@code error} when it failed.
 * </ul>
 * The last few repairs are kept so a nodetool that reconnects can read the end ({@link AdminJobs}).
 */
public final class RepairEndpoints {
  private final RepairService service;
  private final RingNode ring;
  private final AdminJobs jobs = new AdminJobs("repair");

  private RepairEndpoints(RepairService service, RingNode ring) {
    this.service = service;
    this.ring = ring;
  }

  /** {@code paxosOnly=true} (nodetool repair --paxos-only): the Paxos rounds in progress of this node's ranges only. */
  public static void register(AdminHttpServer http, RepairService service, RingNode ring) {
    RepairEndpoints e = new RepairEndpoints(service, ring);
    http.register("/api/repair", req -> req.method().equals("POST") ? e.start(req) : e.jobs.progress(req));
  }

  private Response start(Request req) {
    Map<String, List<String>> p = req.parameters();
    String keyspace = AdminJobs.first(p, "keyspace");
    List<String> tables = p.getOrDefault("table", List.of());
    RepairOptions options;
    try {
      options = RepairOptions.of(keyspace == null || keyspace.isEmpty() ? null : keyspace, tables,
          "true".equals(AdminJobs.first(p, "pr")), "true".equals(AdminJobs.first(p, "full")));
    } catch (IllegalArgumentException ex) {
      return new Response(400, "application/json", JsonWriter.error(ex.getMessage()));
    }
    if ("true".equals(AdminJobs.first(p, "paxosOnly")) && ring.paxosRepair() != null) {
      return jobs.start("cassette-repair-command-", progress -> {
        progress.accept("Starting Paxos repair of the ranges of " + ring.settings().listenAddress().getHostAddress());
        ring.paxosRepair().repairLocalRanges(ring.tokenRing(), progress);
        progress.accept("Paxos repair completed");
      }, (ex, progress) -> {
        progress.accept("Paxos repair failed with error " + ex.getMessage());
        return String.valueOf(ex.getMessage());
      });
    }
    return jobs.start("cassette-repair-command-", progress -> service.repair(options, progress), (ex, progress) -> {
      if (ex instanceof RepairException) {
        return ex.getMessage();
      }
      progress.accept("Repair failed with error " + ex);
      return ex.toString();
    });
  }
}
