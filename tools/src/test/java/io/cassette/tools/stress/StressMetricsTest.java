package io.cassette.tools.stress;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@org.junit.jupiter.api.Timeout(30)
class StressMetricsTest {

  @Test
  void intervalLinesSummaryAndHdrLog(@TempDir Path dir) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ResultLogger out = new ResultLogger(List.of(new PrintStream(bytes, true, StandardCharsets.UTF_8)));
    Path hdr = dir.resolve("run.hdr");
    // Each interval the servers report 2 collections: 5 ms longest, 8 ms in all, 34 ms^2, 3 MiB.
    StressMetrics metrics = new StressMetrics(out, 1000, false, hdr.toString(),
        () -> GcStats.of(2, 3 << 20, 5, 8, 34));
    for (int i = 1; i <= 50; i++) {
      metrics.record("WRITE", 0, 0, i * 1_000_000L, 1, 1, false);
      metrics.record("READ", 0, 0, 2_000_000L, 1, 1, i == 1);
    }
    metrics.recordInterval(0, 1_000_000_000L);
    metrics.record("WRITE", 0, 0, 1_000_000L, 1, 1, false);
    metrics.recordInterval(1_000_000_000L, 2_000_000_000L);
    metrics.summarise();
    metrics.stop();

    String text = bytes.toString(StandardCharsets.UTF_8);
    String[] lines = text.split("\n");
    assertThat(lines[0]).isEqualTo(StressReport.HEAD);
    // Two operation types: a line per type, then the total, each interval.
    assertThat(lines[1]).startsWith(String.format("%-50s", "READ,") + "        50,      50,");
    assertThat(lines[2]).startsWith(String.format("%-50s", "WRITE,") + "        50,      50,");
    assertThat(lines[3]).startsWith(String.format("%-50s", "total,") + "       100,     100,");
    assertThat(lines[3]).contains(",      1,"); // the interval's error
    assertThat(lines[3]).endsWith(",      2,       5,       8,       1,       3");
    assertThat(lines[5]).startsWith(String.format("%-50s", "WRITE,") + "        51,       1,");
    assertThat(lines[6]).startsWith(String.format("%-50s", "total,") + "       101,       1,");
    assertThat(text).contains("Op rate                   :       51 op/s  [READ: 25 op/s, WRITE: 26 op/s]");
    assertThat(text).contains("Total errors              :          1 [READ: 1, WRITE: 0]");
    assertThat(text).contains("Total operation time      : 00:00:02");
    assertThat(text).contains("Total GC count            : 4\n")
        .contains("Total GC memory           : 6.000 MiB\n")
        .contains("Total GC time             :    0.0 seconds\n")
        .contains("Avg GC time               :    4.0 ms\n")
        .contains("StdDev GC time            :    1.0 ms\n");
    assertThat(metrics.summary().operationCount()).isEqualTo(101);

    List<String> tags = new ArrayList<>();
    long counted = 0;
    HistogramLogReader reader = new HistogramLogReader(hdr.toFile());
    EncodableHistogram h;
    while ((h = reader.nextIntervalHistogram()) != null) {
      tags.add(h.getTag());
      counted += ((org.HdrHistogram.Histogram) h).getTotalCount();
    }
    assertThat(tags).containsExactly("READ-st", "WRITE-st", "WRITE-st");
    assertThat(counted).isEqualTo(101);
  }

  @Test
  void fixedRateRecordsResponseAndWaitTimes(@TempDir Path dir) throws Exception {
    ResultLogger out = new ResultLogger(List.of(new PrintStream(new ByteArrayOutputStream())));
    Path hdr = dir.resolve("fixed.hdr");
    StressMetrics metrics = new StressMetrics(out, 1000, true, hdr.toString(), null);
    // Intended at 0, started 300 ms late (the thread was stuck behind a slow op), took 1 ms.
    metrics.record("WRITE", 1, 300_000_001L, 301_000_001L, 1, 1, false);
    metrics.recordInterval(0, 1_000_000_000L);
    metrics.stop();
    assertThat(metrics.summary().maxLatencyMs()).isGreaterThan(300);
    String log = java.nio.file.Files.readString(hdr);
    assertThat(log).contains("Tag=WRITE-st").contains("Tag=WRITE-rt").contains("Tag=WRITE-wt");
  }
}
