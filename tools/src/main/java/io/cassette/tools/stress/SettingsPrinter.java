package io.cassette.tools.stress;

import java.util.ArrayList;
import java.util.List;

/**
 * The "Stress Settings" block cassandra-stress prints before a run (unless -log no-settings):
 * one section per option group with the values in effect, defaults included.
 */
public final class SettingsPrinter {
  private SettingsPrinter() {}

  public static List<String> lines(StressSettings s) {
    List<String> l = new ArrayList<>();
    l.add("******************** Stress Settings ********************");
    StressSettings.CommandSettings c = s.command();
    l.add("Command:");
    l.add("  Type: " + c.type().cliName());
    l.add(String.format("  Count: %,d", c.count()));
    if (c.durationSeconds() > 0) {
      l.add("  Duration: " + StressRunner.durationText(c.durationText()).toUpperCase(java.util.Locale.ROOT));
    }
    l.add("  No Warmup: " + c.noWarmup());
    l.add("  Consistency Level: " + c.consistency());
    if (c.targetUncertainty() != -1) {
      l.add(String.format("  Target Uncertainty: %.3f", c.targetUncertainty()));
      l.add(String.format("  Minimum Uncertainty Measurements: %,d", c.minMeasurements()));
      l.add(String.format("  Maximum Uncertainty Measurements: %,d", c.maxMeasurements()));
    } else {
      l.add("  Target Uncertainty: not applicable");
    }
    if (c.type() == Command.MIXED || c.type() == Command.USER) {
      l.add("  Command Ratios: " + c.ratios());
      l.add("  Command Clustering Distribution: " + c.clustering());
    }
    if (c.type() == Command.USER) {
      l.add("  Profile File: " + c.profile());
    }
    l.add("  Key Size (bytes): " + KeyValueGenerator.KEY_SIZE);
    l.add("  Counter Increment Distibution: add=" + c.add());
    StressSettings.RateSettings r = s.rate();
    l.add("Rate:");
    l.add("  Auto: " + r.auto());
    if (r.isRamp()) {
      l.add("  Min Threads: " + r.minThreads());
      l.add("  Max Threads: " + r.maxThreads());
    } else {
      l.add("  Thread Count: " + r.threads());
      l.add("  OpsPer Sec: " + r.opsPerSecond());
    }
    StressSettings.PopulationSettings p = s.population();
    l.add("Population:");
    if (p.isSequential()) {
      l.add("  Sequence: " + p.first() + ".." + p.last());
    } else {
      l.add("  Distribution: " + p.distribution());
    }
    l.add("  Order: ARBITRARY");
    l.add("  Wrap: " + p.wrap());
    StressSettings.ColumnSettings col = s.columns();
    l.add("Columns:");
    l.add("  Max Columns Per Key: " + col.count().max());
    l.add("  Column Names: " + col.names());
    l.add("  Comparator: AsciiType");
    l.add("  Timestamp: null");
    l.add("  Variable Column Count: " + (col.count().min() < col.count().max()));
    l.add("  Slice: " + col.slice());
    l.add("  Size Distribution: " + col.size());
    l.add("  Count Distribution: " + col.count());
    StressSettings.ErrorSettings e = s.errors();
    l.add("Errors:");
    l.add("  Ignore: " + e.ignore());
    l.add("  Tries: " + e.tries());
    StressSettings.LogSettings log = s.log();
    l.add("Log:");
    l.add("  No Summary: " + log.noSummary());
    l.add("  No Settings: " + log.noSettings());
    l.add("  File: " + log.file());
    l.add("  Interval Millis: " + log.intervalMillis());
    l.add("  Level: NORMAL");
    l.add("  HdrFile: " + log.hdrFile());
    StressSettings.ModeSettings m = s.mode();
    l.add("Mode:");
    l.add("  API: JAVA_DRIVER_NATIVE");
    l.add("  Connection Style: " + (m.prepared() ? "CQL_PREPARED" : "CQL"));
    l.add("  Protocol Version: " + (m.protocolVersion() == 0 ? "NEWEST_SUPPORTED" : "V" + m.protocolVersion()));
    l.add("  Username: " + m.user());
    l.add("  Password: " + (m.password() == null ? null : "*suppressed*"));
    l.add("  Max Pending Per Connection: " + m.maxPending());
    l.add("  Connections Per Host: " + m.connectionsPerHost());
    l.add("  Compression: NONE");
    l.add("Node:");
    l.add("  Nodes: " + s.nodes());
    l.add("  Is White List: false");
    if (c.type() != Command.USER) {
      StressSettings.SchemaSettings sc = s.schema();
      l.add("Schema:");
      l.add("  Keyspace: " + sc.keyspace());
      l.add("  Replication Strategy: " + sc.strategy());
      l.add("  Replication Strategy Options: " + sc.replication());
      l.add("  Table Compression: " + sc.compression());
      l.add("  Table Compaction Strategy: null");
      l.add("  Table Compaction Strategy Options: {}");
    }
    l.add("Port:");
    l.add("  Native Port: " + s.nativePort());
    StressSettings.GraphSettings g = s.graph();
    l.add("Graph:");
    l.add("  File: " + g.file());
    l.add("  Revision: " + g.revision());
    l.add("  Title: " + g.title());
    l.add("  Operation: " + g.operation());
    l.add("");
    return l;
  }
}
