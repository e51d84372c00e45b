package io.cassette.tools.stress;

import io.cassette.tools.json.Json;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GraphReportTest {

  private static List<String> capturedRun(String revisionLine) {
    TimingInterval t = new TimingInterval(false);
    t.serviceTime().recordValue(1_000_000L);
    t.rowCount = 1;
    t.partitionCount = 1;
    t.bounds(0, 1_000_000_000L);
    List<String> lines = new ArrayList<>();
    lines.add(revisionLine);
    lines.add("Running WRITE with 4 threads for 1 iteration");
    lines.add(StressReport.HEAD);
    lines.add(StressReport.row("", "total", t, t, 0, GcStats.NONE));
    lines.add("");
    lines.add("");
    lines.addAll(StressReport.results(t, Map.of("WRITE", t), GcStats.NONE));
    lines.add("END");
    return lines;
  }

  @Test
  void pageIsSelfContainedAndAccumulatesRuns(@TempDir Path dir) throws Exception {
    Path html = dir.resolve("report.html");
    Path log = dir.resolve("capture.log");
    Files.write(log, capturedRun("Sleeping 2s..."));
    StressSettings first = StressSettingsParser.parse("write", "n=1", "-graph", "file=" + html,
        "title=board", "revision=r1");
    GraphReport.write(first, log);
    StressSettings second = StressSettingsParser.parse("write", "n=1", "-graph", "file=" + html,
        "title=board", "revision=r2", "-mode", "user=u", "password=secret");
    GraphReport.write(second, log);

    String page = Files.readString(html);
    assertThat(page).contains("createElementNS").doesNotContain("src=\"http").doesNotContain("href=\"http")
        .doesNotContain("@import").doesNotContain("secret");
    String json = page.substring(page.indexOf("stats = ") + 8, page.indexOf(";\n/* stats end */"));
    @SuppressWarnings("unchecked")
    Map<String, Object> stats = (Map<String, Object>) Json.read(json);
    assertThat(stats.get("title")).isEqualTo("board");
    List<?> runs = (List<?>) stats.get("stats");
    assertThat(runs).hasSize(2);
    Map<?, ?> run = (Map<?, ?>) runs.get(0);
    assertThat(run.get("revision")).isEqualTo("r1");
    assertThat(run.get("test")).isEqualTo("WRITE");
    assertThat(run.get("title")).isEqualTo("board");
    assertThat(run.get("op rate")).isEqualTo("1 op/s  [WRITE: 1 op/s]");
    assertThat((List<?>) run.get("intervals")).hasSize(1);
    assertThat(((List<?>) run.get("metrics")).get(1)).isEqualTo("total ops");
    assertThat(((Map<?, ?>) runs.get(1)).get("revision")).isEqualTo("r2");
    assertThat((String) ((Map<?, ?>) runs.get(1)).get("command")).contains("password=*******");
  }

  @Test
  void rampRunsAreLabelledWithTheirThreadCount() {
    List<String> lines = new ArrayList<>(capturedRun("Thread count was not specified"));
    StressSettings.GraphSettings g = new StressSettings.GraphSettings("x.html", "t", "rev", "READ");
    List<Map<String, Object>> runs = GraphReport.parse(lines, g, "read n=1");
    assertThat(runs).hasSize(1);
    assertThat(runs.get(0).get("revision")).isEqualTo("rev - 4 threads");
  }
}
