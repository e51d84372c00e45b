package io.cassette.coordinator.ring;

import java.util.Locale;

/**
 * A table's read options that the ring coordinator honours, with Cassandra's names and
 * defaults: {@code read_repair} ('BLOCKING' or 'NONE') and {@code speculative_retry}.
 *
 * <p>{@code speculative_retry} forms accepted (case-insensitive): {@code NONE} / {@code NEVER};
 * {@code ALWAYS} (the extra request goes out with the first ones); {@code 50ms} (a fixed
 * delay); {@code 99p} / {@code 99PERCENTILE} / {@code p99} (the table's recent read latency at
 * that percentile, from {@link ReadLatencies}); {@code MIN(99p,50ms)} / {@code MAX(...)}.
 * Until a table has {@link ReadLatencies#MIN_SAMPLES} reads a percentile means half the read
 * timeout, as Cassandra seeds its sampled read latency.
 *
 * @param blockingReadRepair {@code read_repair = 'BLOCKING'}: a digest mismatch writes the
 *                           reconciled data back to the stale replicas before answering
 * @param speculativeRetry   the option's text as the table has it
 */
public record ReadPolicy(boolean blockingReadRepair, String speculativeRetry) {
  /** Cassandra 5.0's defaults. */
  public static final ReadPolicy DEFAULT = new ReadPolicy(true, "99p");

  /** From the table options' texts (null: the default). */
  public static ReadPolicy of(String readRepair, String speculativeRetry) {
    boolean blocking = readRepair == null || !readRepair.trim().equalsIgnoreCase("NONE");
    return new ReadPolicy(blocking, speculativeRetry == null ? "99p" : speculativeRetry);
  }

  /**
   * Microseconds to wait for replicas before asking one more, given the table's latencies:
   * 0 to ask at once (ALWAYS), {@link Long#MAX_VALUE} never.
   */
  public long retryAfterMicros(ReadLatencies.Table latencies) {
    return retryAfterMicros(latencies, Long.MAX_VALUE);
  }

  /** @param unsampledMicros the delay a percentile means while the table has too few samples */
  public long retryAfterMicros(ReadLatencies.Table latencies, long unsampledMicros) {
    return delay(speculativeRetry.trim().toUpperCase(Locale.ROOT), latencies, unsampledMicros);
  }

  private static long delay(String s, ReadLatencies.Table latencies, long unsampled) {
    if (s.isEmpty() || s.equals("NONE") || s.equals("NEVER")) {
      return Long.MAX_VALUE;
    }
    if (s.equals("ALWAYS")) {
      return 0;
    }
    if ((s.startsWith("MIN(") || s.startsWith("MAX(")) && s.endsWith(")")) {
      String[] parts = s.substring(4, s.length() - 1).split(",");
      if (parts.length == 2) {
        long a = delay(parts[0].trim(), latencies, unsampled);
        long b = delay(parts[1].trim(), latencies, unsampled);
        return s.startsWith("MIN") ? Math.min(a, b) : Math.max(a, b);
      }
      return Long.MAX_VALUE;
    }
    try {
      if (s.endsWith("MS")) {
        return (long) (Double.parseDouble(s.substring(0, s.length() - 2)) * 1000);
      }
      String pct = s.endsWith("PERCENTILE") ? s.substring(0, s.length() - "PERCENTILE".length())
          : s.endsWith("P") ? s.substring(0, s.length() - 1)
          : s.startsWith("P") ? s.substring(1) : null;
      if (pct != null) {
        long v = latencies == null ? -1 : latencies.percentileMicros(Double.parseDouble(pct));
        return v < 0 ? unsampled : v;
      }
    } catch (NumberFormatException e) {
      return Long.MAX_VALUE;
    }
    return Long.MAX_VALUE; // CQL validates the option; an unknown form means no retry here
  }
}
