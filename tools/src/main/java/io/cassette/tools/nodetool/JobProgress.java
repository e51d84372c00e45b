package io.cassette.tools.nodetool;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintStream;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;

/**
 * Follows a job the node runs in the background (repair, decommission, removenode: the
 * server's AdminJobs): polls {@code GET path?id=N&from=K} and prints each progress line after
 * its time, as Cassandra's nodetool prints notifications:
 * {@code [2026-12-01 18:00:00,123] Repair session ... finished (progress: 50%)}.
 */
final class JobProgress {
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss,SSS").withZone(ZoneId.systemDefault());

  private JobProgress() {}

  /**
   * Prints job {@code id}'s lines until it is done, asking every {@code pollMillis}.
   *
   * @return the job's error text, or null when it succeeded
   */
  static String follow(AdminClient node, String path, String id, PrintStream out, long pollMillis) {
    int from = 0;
    while (true) {
      JsonNode p = node.get(path, Map.of("id", List.of(id), "from", List.of(Integer.toString(from))));
      for (JsonNode line : p.path("lines")) {
        out.println("[" + TIME.format(Instant.ofEpochMilli(line.path("time").asLong())) + "] "
            + line.path("text").asText());
      }
      out.flush();
      from = p.path("next").asInt(from);
      if (p.path("done").asBoolean()) {
        return p.hasNonNull("error") ? p.path("error").asText() : null;
      }
      try {
        Thread.sleep(pollMillis);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new NodetoolException("Interrupted");
      }
    }
  }
}
