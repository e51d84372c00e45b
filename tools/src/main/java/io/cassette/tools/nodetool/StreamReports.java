package io.cassette.tools.nodetool;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Locale;

/** nodetool netstats and getstreamthroughput, from the node's JSON, in Cassandra's shapes. */
final class StreamReports {
  private StreamReports() {}

  /**
   * <pre>
   * Mode: JOINING
   * Bootstrap
   *     /127.0.0.2
   *         Sending ks.t: 1234 bytes, 10 partitions so far
   *         Receiving: 5678 bytes in 3 batches (0 refused as damaged)
   * </pre>
   */
  static String netstats(JsonNode n) {
    StringBuilder b = new StringBuilder("Mode: ").append(n.path("mode").asText()).append('\n');
    boolean any = false;
    for (JsonNode o : n.path("outgoing")) {
      if (o.path("done").asBoolean()) {
        continue;
      }
      any = true;
      b.append(o.path("purpose").asText()).append(' ').append(o.path("id").asLong()).append('\n')
          .append("    /").append(o.path("peer").asText()).append('\n')
          .append("        Sending ").append(o.path("keyspace").asText()).append('.').append(o.path("table").asText())
          .append(": ").append(o.path("bytes").asLong()).append(" bytes, ").append(o.path("partitions").asLong())
          .append(" partitions so far\n");
    }
    for (JsonNode in : n.path("incoming")) {
      if (!in.path("active").asBoolean()) {
        continue;
      }
      any = true;
      b.append("Receiving\n    /").append(in.path("peer").asText()).append('\n')
          .append("        Received ").append(in.path("bytes").asLong()).append(" bytes in ")
          .append(in.path("batches").asLong()).append(" batches (").append(in.path("refused").asLong())
          .append(" refused as damaged and sent again)\n");
    }
    if (!any) {
      b.append("Not sending any streams.\n");
    }
    b.append("Total sent: ").append(n.path("totalSent").asLong()).append(" bytes, received: ")
        .append(n.path("totalReceived").asLong()).append(" bytes\n");
    return b.toString();
  }

  /** Cassandra's "Current stream throughput: 200 Mb/s" (megabits), or MiB/s with -m; 0 is unlimited. */
  static String throughput(JsonNode t, boolean mebibytes) {
    long bytes = t.path("throughputBytesPerSecond").asLong();
    if (bytes <= 0) {
      return "Current stream throughput: unlimited\n";
    }
    return mebibytes
        ? String.format(Locale.ROOT, "Current stream throughput: %.1f MiB/s%n", bytes / (double) (1 << 20))
        : "Current stream throughput: " + Math.round(bytes * 8 / 1e6) + " Mb/s\n";
  }

  /** The bytes per second for setstreamthroughput's value: megabits per second, or MiB/s with -m. */
  static long bytesPerSecond(String value, boolean mebibytes) {
    if (!value.matches("\\d{1,9}")) {
      throw new NodetoolMain.UsageException("setstreamthroughput needs a whole number, not '" + value + "'");
    }
    long v = Long.parseLong(value);
    return mebibytes ? v << 20 : v * 1_000_000 / 8;
  }
}
