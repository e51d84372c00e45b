package io.cassette.tools.stress;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class StressReportTest {

  /** 100 writes taking 1, 2, ... 100 ms over 10 s, 100 rows, 100 partitions, 2 errors. */
  private static TimingInterval knownRun(String... unused) {
    TimingInterval t = new TimingInterval(false);
    for (int i = 1; i <= 100; i++) {
      t.serviceTime().recordValue(i * 1_000_000L);
    }
    t.rowCount = 100;
    t.partitionCount = 100;
    t.errorCount = 2;
    t.bounds(0, 10_000_000_000L);
    return t;
  }

  @Test
  void headerIsCassandraStressHeader() {
    assertThat(StressReport.HEAD).isEqualTo(String.format("%-50s", "type")
        + " total ops,    op/s,    pk/s,   row/s,    mean,     med,     .95,     .99,    .999,     max,"
        + "   time,   stderr, errors,  gc: #,  max ms,  sum ms,  sdv ms,      mb");
  }

  @Test
  void summaryArithmeticOnAKnownRun() {
    TimingInterval run = knownRun();
    Map<String, TimingInterval> byOp = new TreeMap<>(Map.of("WRITE", run));
    List<String> lines = StressReport.results(run, byOp, GcStats.NONE);
    assertThat(lines).containsExactly(
        "Results:",
        "Op rate                   :       10 op/s  [WRITE: 10 op/s]",
        "Partition rate            :       10 pk/s  [WRITE: 10 pk/s]",
        "Row rate                  :       10 row/s [WRITE: 10 row/s]",
        "Latency mean              :   50.5 ms [WRITE: 50.5 ms]",
        "Latency median            :   50.0 ms [WRITE: 50.0 ms]",
        "Latency 95th percentile   :   95.0 ms [WRITE: 95.0 ms]",
        "Latency 99th percentile   :   99.0 ms [WRITE: 99.0 ms]",
        "Latency 99.9th percentile :  100.0 ms [WRITE: 100.0 ms]",
        "Latency max               :  100.0 ms [WRITE: 100.0 ms]",
        "Total partitions          :        100 [WRITE: 100]",
        "Total errors              :          2 [WRITE: 2]",
        "Total GC count            : 0",
        "Total GC memory           : 0.000 KiB",
        "Total GC time             :    0.0 seconds",
        "Avg GC time               :    NaN ms",
        "StdDev GC time            :    0.0 ms",
        "Total operation time      : 00:00:10",
        "");
  }

  @Test
  void perOperationBreakdownOfAMixedRun() {
    TimingInterval read = knownRun();
    TimingInterval write = new TimingInterval(false);
    write.serviceTime().recordValue(2_000_000L);
    write.rowCount = 1;
    write.partitionCount = 1;
    write.bounds(0, 10_000_000_000L);
    TimingInterval total = new TimingInterval(false);
    total.add(read);
    total.add(write);
    Map<String, TimingInterval> byOp = new TreeMap<>(Map.of("WRITE", write, "READ", read));
    List<String> lines = StressReport.results(total, byOp, GcStats.NONE);
    assertThat(lines.get(1)).isEqualTo("Op rate                   :       10 op/s  [READ: 10 op/s, WRITE: 0 op/s]");
    assertThat(lines.get(10)).isEqualTo("Total partitions          :        101 [READ: 100, WRITE: 1]");
  }

  @Test
  void intervalRow() {
    TimingInterval run = knownRun();
    String row = StressReport.row("", "total", run, run, 0.01234, GcStats.NONE);
    assertThat(row).isEqualTo(String.format("%-50s", "total,")
        + "       100,      10,      10,      10,    50.5,    50.0,    95.0,    99.0,   100.0,   100.0,"
        + "   10.0,  0.01234,      2,      0,       0,       0,       0,       0");
    assertThat(row.split(",")).hasSize(StressReport.HEAD_METRICS.length);
  }

  @Test
  void fixedRateReportsResponseTimeCorrectedForCoordinatedOmission() {
    TimingInterval t = new TimingInterval(true);
    t.serviceTime().recordValue(1_000_000L);
    t.responseTime().recordValue(500_000_000L); // waited 499 ms behind a stall
    t.bounds(0, 1_000_000_000L);
    assertThat(t.maxLatencyMs()).isGreaterThan(499);
    TimingInterval unfixed = new TimingInterval(false);
    unfixed.add(t);
    assertThat(unfixed.maxLatencyMs()).isLessThan(1.01);
  }

  @Test
  void rampSummaryTable() {
    TimingInterval run = knownRun();
    List<String> lines = StressReport.rampSummary(List.of("4 threadCount", "8 threadCount"),
        List.of(Map.of("WRITE", run), Map.of("WRITE", run)), List.of(run, run), List.of(0.0, 0.0),
        List.of(GcStats.NONE, GcStats.NONE));
    assertThat(lines).hasSize(5);
    assertThat(lines.get(0)).isEqualTo("           id, " + StressReport.HEAD);
    assertThat(lines.get(1)).startsWith("4 threadCount, WRITE,");
    assertThat(lines.get(2)).startsWith("4 threadCount, total,");
    assertThat(lines.get(4)).startsWith("8 threadCount, total,");
  }

  @Test
  void longRunsPrintHoursBeyondADay() {
    assertThat(StressReport.hhmmss(90_061_000L)).isEqualTo("25:01:01");
    assertThat(StressReport.prettyPrintMemory(3L << 30)).isEqualTo("3.000 GiB");
  }
}
