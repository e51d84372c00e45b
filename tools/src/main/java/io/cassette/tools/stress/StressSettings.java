package io.cassette.tools.stress;

import java.util.List;
import java.util.Map;

/**
 * Everything a stress run was asked to do, parsed from the command line by
 * {@link StressSettingsParser}. Immutable.
 *
 * @param arguments the command line as given (for the graph page's "command" field)
 */
public record StressSettings(
    CommandSettings command,
    RateSettings rate,
    PopulationSettings population,
    ColumnSettings columns,
    SchemaSettings schema,
    ModeSettings mode,
    List<String> nodes,
    int nativePort,
    int jmxPort,
    LogSettings log,
    GraphSettings graph,
    ErrorSettings errors,
    List<String> arguments) {

  /** When to truncate the tables: never, once before the run, or before each ramp step. */
  public enum Truncate { NEVER, ONCE, ALWAYS }

  /**
   * The command and its own options.
   *
   * @param count operations per run; -1 when the run is bounded by duration or uncertainty
   * @param durationSeconds run length when given as duration=; 0 otherwise
   * @param targetUncertainty stop once the row rate's standard error falls below this (err<);
   *     -1 when count or duration bound the run
   * @param ratios mixed: command name to weight; user: query name to weight ("insert" too)
   * @param clustering how many operations of one kind run back to back (mixed, user)
   * @param add counter increment distribution (counter_write, mixed)
   * @param profile user profile YAML path (user only)
   */
  public record CommandSettings(Command type, long count, long durationSeconds, String durationText,
      double targetUncertainty, int minMeasurements, int maxMeasurements, boolean noWarmup,
      Truncate truncate, String consistency, Map<String, Double> ratios, Distribution clustering,
      Distribution add, String profile) {}

  /**
   * Thread count and rate: either a fixed thread count with an optional rate, or a ramp.
   *
   * @param threads the fixed thread count; -1 for a ramp
   * @param opsPerSecond target rate across all threads; 0 for as fast as possible
   * @param fixedRate true for fixed=N/s (an implied schedule: latency measured from the
   *     intended start, which corrects for coordinated omission), false for throttle=N/s
   * @param auto stop ramping once throughput stops improving (else run every step up to max)
   */
  public record RateSettings(int threads, int opsPerSecond, boolean fixedRate, boolean auto,
      int minThreads, int maxThreads) {
    public boolean isRamp() {
      return threads < 0;
    }
  }

  /**
   * Which partition seeds the operations visit: a sequence (seq=first..last, wrapping unless
   * no-wrap) or a distribution (dist=...).
   */
  public record PopulationSettings(long first, long last, boolean wrap, Distribution distribution) {
    public boolean isSequential() {
      return distribution == null;
    }
  }

  /** The predefined tables' columns: their names (C0..), per-cell size and per-op count. */
  public record ColumnSettings(List<String> names, Distribution size, Distribution count, boolean slice) {}

  /** The predefined keyspace: name, replication strategy and options, table compression. */
  public record SchemaSettings(String keyspace, String strategy, Map<String, String> replication,
      String compression) {}

  /**
   * How to connect.
   *
   * @param protocolVersion 3, 4 or 5; 0 for the newest both sides support
   * @param prepared whether statements are prepared (the default without -mode)
   */
  public record ModeSettings(int protocolVersion, boolean prepared, String user, String password,
      int connectionsPerHost, int maxPending) {}

  /**
   * Output.
   *
   * @param file where the interval lines and results also go, or null
   * @param hdrFile the HdrHistogram interval log, or null
   */
  public record LogSettings(int intervalMillis, String file, String hdrFile, boolean noSummary,
      boolean noSettings) {}

  /** The HTML report: file to create or add to, chart title, this run's revision and op name. */
  public record GraphSettings(String file, String title, String revision, String operation) {
    public boolean enabled() {
      return file != null;
    }
  }

  /**
   * Failed operations.
   *
   * @param ignore count failures and go on (else a failed run ends with FAILURE, exit 1)
   * @param tries attempts per operation before it counts as failed
   */
  public record ErrorSettings(boolean ignore, int tries) {}
}
