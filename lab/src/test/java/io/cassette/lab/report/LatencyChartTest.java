package io.cassette.lab.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.lab.check.Status;
import io.cassette.lab.fault.FaultKind;
import io.cassette.lab.fault.FaultWindow;
import io.cassette.lab.workload.OpRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The chart of a simulated 60 s run says what happened, and every label lies inside the picture. */
class LatencyChartTest {
  @Test
  void showsTheFaultsTheOutagesAndEveryWorkload() throws Exception {
    Map<String, List<OpRecord>> ops = new LinkedHashMap<>();
    for (String w : List.of("cas-register", "set", "counter", "redis-incr", "bank", "hints")) {
      List<OpRecord> l = new ArrayList<>();
      for (long ms = 1_000; ms < 60_000; ms += 50) {
        boolean down = ms >= 20_000 && ms < 26_000; // nothing acknowledged while n2 is down
        l.add(new OpRecord(w, ms * 1_000_000, (ms + (down ? 2_000 : 5)) * 1_000_000,
            down ? Status.INDETERMINATE : Status.OK));
      }
      ops.put(w, l);
    }
    List<FaultWindow> faults = List.of(new FaultWindow(FaultKind.KILL, 2, 20_000, 32_000, 50_000, "restarted"),
        new FaultWindow(FaultKind.PARTITION, 1, 52_000, 58_000, "n1 | [2, 3]"));
    String svg = LatencyChart.svg("fault lab: 3 nodes, 60 s, faults [KILL, PARTITION]", ops, faults, 60_000);
    Files.createDirectories(Path.of("target"));
    Files.writeString(Path.of("target", "latency-chart-test.svg"), svg); // to look at

    assertThat(svg).contains(">kill n2<", ">partition n1<", ">starting<", "operations acknowledged per second");
    for (String w : ops.keySet()) {
      assertThat(svg).as("legend and tick row of " + w).containsPattern(">" + w + "</text>[\\s\\S]*>" + w + "</text>");
    }
    // The kill is dark until the restart began (32 s), light until ready (50 s): two bands per panel.
    assertThat(Pattern.compile("opacity=\"0.3\"><title>kill n2").matcher(svg).results().count()).isEqualTo(2);
    // Every text starts inside the picture and the longest legend line fits (about 6 px a character at 10-11 px).
    int width = Integer.parseInt(find(svg, "<svg[^>]* width=\"(\\d+)\""));
    Matcher m = Pattern.compile("<text x=\"([\\d.]+)\"[^>]*>([^<]*)</text>").matcher(svg);
    while (m.find()) {
      double x = Double.parseDouble(m.group(1));
      boolean centred = m.group(0).contains("text-anchor");
      assertThat(x + (centred ? 0 : 6 * m.group(2).length())).as(m.group(0)).isLessThanOrEqualTo(width);
    }
  }

  private static String find(String s, String regex) {
    Matcher m = Pattern.compile(regex).matcher(s);
    assertThat(m.find()).isTrue();
    return m.group(1);
  }
}
