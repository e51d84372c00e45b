package io.cassette.tools.nodetool;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code nodetool repair [-pr] [-full] [KEYSPACE [TABLE...]]}: starts a repair on the node
 * ({@code POST /api/repair}) and prints its progress lines as they come
 * ({@code GET /api/repair?id=N&from=K}), each after its time as Cassandra's nodetool prints
 * them: {@code [2026-12-01 18:00:00,123] Repair session ... finished (progress: 50%)}. A failed
 * repair (a replica down: "Endpoint not alive") is a {@link NodetoolException}: exit status 1.
 */
final class RepairRunner {
  /** How often the node is asked for new lines. */
  static final long POLL_MILLIS = 200;

  private RepairRunner() {}

  /**
   * @param args the command's own arguments
   * @throws NodetoolMain.UsageException for an unknown option
   */
  static void run(AdminClient node, List<String> args, PrintStream out) {
    boolean pr = false;
    boolean full = false;
    boolean paxosOnly = false;
    List<String> names = new ArrayList<>();
    for (String a : args) {
      switch (a) {
        case "-pr", "--partitioner-range" -> pr = true;
        case "-full", "--full" -> full = true;
        case "--paxos-only" -> paxosOnly = true; // Cassandra 4.1+: only the Paxos rounds in progress
        default -> {
          if (a.startsWith("-")) {
            throw new NodetoolMain.UsageException("Unknown option '" + a + "'");
          }
          names.add(a);
        }
      }
    }
    Map<String, List<String>> params = new LinkedHashMap<>();
    if (!names.isEmpty()) {
      params.put("keyspace", List.of(names.get(0)));
      if (names.size() > 1) {
        params.put("table", names.subList(1, names.size()));
      }
    }
    params.put("pr", List.of(Boolean.toString(pr)));
    params.put("full", List.of(Boolean.toString(full)));
    if (paxosOnly) {
      params.put("paxosOnly", List.of("true"));
    }
    String id = node.post("/api/repair", params).path("id").asText();
    String error = JobProgress.follow(node, "/api/repair", id, out, POLL_MILLIS);
    if (error != null) {
      throw new NodetoolException("Repair job has failed with the error message: " + error
          + ". Check the logs on the repair participants for further details");
    }
  }
}
