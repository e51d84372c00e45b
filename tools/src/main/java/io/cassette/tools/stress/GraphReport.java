package io.cassette.tools.stress;

import io.cassette.tools.json.Json;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The -graph file: one self-contained HTML page (inline script and SVG, nothing fetched) with
 * charts of the interval metrics over time and the Results of every run written to it. Each
 * stress invocation with the same file adds its runs (one per ramp step), labelled by
 * revision, so several configurations can be compared on one page.
 *
 * <p>The data lives in the page as cassandra-stress writes it, between two markers:
 * <pre>
 * /* stats start *&#47;
 * stats = {"title": ..., "stats": [{"revision", "test", "command", "metrics": [...],
 *          "intervals": [[...], ...], "op rate": "...", ...}, ...]};
 * /* stats end *&#47;
 * </pre>
 * and is read back from there when the file exists.
 */
public final class GraphReport {
  static final String START_MARKER = "/* stats start */\n";
  static final String END_MARKER = "/* stats end */\n";
  private static final Pattern EXISTING =
      Pattern.compile("(?s).*/\\* stats start \\*/\\nstats = (.*);\\n/\\* stats end \\*/.*");
  private static final Pattern THREAD_COUNT = Pattern.compile("Running ([A-Z_]+) with ([0-9]+) threads .*");

  private GraphReport() {}

  /** Adds the runs in the captured output {@code log} to the graph file (creating it). */
  public static void write(StressSettings settings, Path log) throws IOException {
    Path html = Path.of(settings.graph().file());
    Map<String, Object> stats = new LinkedHashMap<>();
    List<Object> runs = new ArrayList<>();
    if (Files.isRegularFile(html)) {
      Matcher m = EXISTING.matcher(Files.readString(html, StandardCharsets.UTF_8));
      if (!m.matches()) {
        throw new ArgumentException("-graph file=" + html + " exists but holds no stress data; choose another file");
      }
      @SuppressWarnings("unchecked")
      Map<String, Object> existing = (Map<String, Object>) Json.read(m.group(1));
      Object old = existing.get("stats");
      if (old instanceof List<?> l) {
        runs.addAll(l);
      }
    }
    String command = String.join(" ", settings.arguments()).replaceAll("password=\\S*", "password=*******");
    runs.addAll(parse(Files.readAllLines(log, StandardCharsets.UTF_8), settings.graph(), command));
    stats.put("title", settings.graph().title());
    stats.put("stats", runs);
    Files.writeString(html, page(stats), StandardCharsets.UTF_8);
  }

  /** Fills the page template with the stats. */
  static String page(Map<String, Object> stats) throws IOException {
    String template;
    try (InputStream in = GraphReport.class.getResourceAsStream("graph.html")) {
      if (in == null) {
        throw new IOException("graph.html template missing from the classpath");
      }
      template = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    String block = START_MARKER + "stats = " + Json.write(stats) + ";\n" + END_MARKER;
    int at = template.indexOf(START_MARKER + "\n" + END_MARKER);
    return template.substring(0, at) + block
        + template.substring(at + START_MARKER.length() + 1 + END_MARKER.length());
  }

  /**
   * Reads the runs out of the printed output: each run's interval rows (after the header
   * line) and Results block (after "Results:" up to its blank line), as cassandra-stress's
   * StressGraph does.
   */
  static List<Map<String, Object>> parse(List<String> lines, StressSettings.GraphSettings graph, String command) {
    List<Map<String, Object>> runs = new ArrayList<>();
    Map<String, Object> run = new LinkedHashMap<>();
    List<Object> intervals = new ArrayList<>();
    boolean ramp = false;
    String threadCount = null;
    String mode = "start";
    for (String line : lines) {
      if (line.startsWith("Thread count was not specified")) {
        ramp = true;
      }
      if (ramp) {
        Matcher tc = THREAD_COUNT.matcher(line);
        if (tc.matches()) {
          threadCount = tc.group(2);
        }
      }
      if (line.equals(StressReport.HEAD)) {
        mode = "metrics";
        continue;
      } else if (line.equals("Results:")) {
        mode = "aggregates";
        continue;
      } else if (mode.equals("aggregates") && line.isEmpty()) {
        mode = "next";
      } else if (line.equals("END") || line.equals("FAILURE")) {
        break;
      }
      switch (mode) {
        case "metrics" -> {
          String[] parts = line.split(",");
          if (parts.length != StressReport.HEAD_METRICS.length) {
            continue;
          }
          List<Object> values = new ArrayList<>();
          for (String p : parts) {
            try {
              values.add(new BigDecimal(p.trim()));
            } catch (NumberFormatException e) {
              values.add(p.trim().isEmpty() ? null : p.trim());
            }
          }
          intervals.add(values);
        }
        case "aggregates" -> {
          String[] parts = line.split(":", 2);
          if (parts.length == 2) {
            run.put(parts[0].trim().toLowerCase(java.util.Locale.ROOT), parts[1].trim());
          }
        }
        case "next" -> {
          run.put("metrics", List.of(StressReport.HEAD_METRICS));
          run.put("test", graph.operation());
          run.put("title", graph.title());
          run.put("revision", threadCount == null ? graph.revision()
              : String.format("%s - %s threads", graph.revision(), threadCount));
          run.put("command", command);
          run.put("intervals", intervals);
          runs.add(run);
          run = new LinkedHashMap<>();
          intervals = new ArrayList<>();
          mode = "start";
        }
        default -> { }
      }
    }
    return runs;
  }
}
