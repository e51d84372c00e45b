package io.cassette.lab.report;

import io.cassette.lab.check.Status;
import io.cassette.lab.fault.FaultWindow;
import io.cassette.lab.workload.OpRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Latency over time as one self-contained SVG: per workload the p99 and max latency of each
 * half-second bucket (log scale), failed and indeterminate operations as ticks at their call
 * time, and every fault window shaded and labelled.
 */
public final class LatencyChart {
  private static final int WIDTH = 1000;
  private static final int HEIGHT = 420;
  private static final int LEFT = 60;
  private static final int RIGHT = 150;
  private static final int TOP = 40;
  private static final int BOTTOM = 50;
  private static final long BUCKET_NANOS = 500_000_000L;
  private static final String[] COLOURS = {"#1f77b4", "#2ca02c", "#9467bd", "#8c564b", "#17becf"};

  private LatencyChart() {}

  public static String svg(String title, Map<String, List<OpRecord>> byWorkload, List<FaultWindow> faults,
                           long runMillis) {
    double maxMs = 1;
    for (List<OpRecord> ops : byWorkload.values()) {
      for (OpRecord r : ops) {
        maxMs = Math.max(maxMs, r.latencyNanos() / 1e6);
      }
    }
    double top = Math.pow(10, Math.ceil(Math.log10(maxMs)));
    double bottom = 0.1;
    int plotW = WIDTH - LEFT - RIGHT;
    int plotH = HEIGHT - TOP - BOTTOM;
    double seconds = Math.max(1, runMillis / 1000.0);
    StringBuilder s = new StringBuilder();
    s.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
        + "font-family=\"sans-serif\" font-size=\"11\">%n", WIDTH, HEIGHT));
    s.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
    s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"20\" font-size=\"14\">%s</text>%n", LEFT, escape(title)));
    for (FaultWindow f : faults) {
      double x0 = LEFT + plotW * (f.start() / 1000.0) / seconds;
      double x1 = LEFT + plotW * (f.end() / 1000.0) / seconds;
      String fill = switch (f.kind()) {
        case KILL -> "#f4a582";
        case PAUSE -> "#fddbc7";
        default -> "#d1e5f0";
      };
      s.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\" "
          + "opacity=\"0.8\"><title>%s</title></rect>%n", x0, TOP, Math.max(1, x1 - x0), plotH, fill,
          escape(f.describe())));
      s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" font-size=\"10\">%s%s</text>%n", x0 + 2,
          TOP + 12, f.kind().label(), f.node() > 0 ? " n" + f.node() : ""));
    }
    // Axes: log latency, linear time.
    for (double v = bottom; v <= top * 1.001; v *= 10) {
      double y = y(v, bottom, top, plotH);
      s.append(String.format(Locale.ROOT, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>%n",
          LEFT, LEFT + plotW, y, y));
      s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s ms</text>%n", LEFT - 4,
          y + 4, v < 1 ? String.format(Locale.ROOT, "%.1f", v) : String.format(Locale.ROOT, "%.0f", v)));
    }
    int step = (int) Math.max(1, Math.round(seconds / 10));
    for (int t = 0; t <= seconds; t += step) {
      double x = LEFT + plotW * t / seconds;
      s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d s</text>%n", x,
          TOP + plotH + 15, t));
    }
    s.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
        + "stroke=\"#444\"/>%n", LEFT, TOP, plotW, plotH));
    int i = 0;
    for (Map.Entry<String, List<OpRecord>> e : byWorkload.entrySet()) {
      String colour = COLOURS[i % COLOURS.length];
      TreeMap<Long, List<Long>> buckets = new TreeMap<>();
      List<OpRecord> bad = new ArrayList<>();
      for (OpRecord r : e.getValue()) {
        buckets.computeIfAbsent(r.call() / BUCKET_NANOS, b -> new ArrayList<>()).add(r.latencyNanos());
        if (r.status() != Status.OK) {
          bad.add(r);
        }
      }
      StringBuilder p99 = new StringBuilder();
      StringBuilder max = new StringBuilder();
      for (Map.Entry<Long, List<Long>> b : buckets.entrySet()) {
        List<Long> l = b.getValue();
        l.sort(null);
        double x = LEFT + plotW * ((b.getKey() + 0.5) * BUCKET_NANOS / 1e9) / seconds;
        double q = l.get(Math.min(l.size() - 1, (int) Math.ceil(l.size() * 0.99) - 1)) / 1e6;
        double m = l.get(l.size() - 1) / 1e6;
        p99.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y(Math.max(q, bottom), bottom, top, plotH)));
        max.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y(Math.max(m, bottom), bottom, top, plotH)));
      }
      s.append(String.format(Locale.ROOT, "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"/>%n",
          p99, colour));
      s.append(String.format(Locale.ROOT, "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"0.8\" "
          + "stroke-dasharray=\"3,2\"/>%n", max, colour));
      for (OpRecord r : bad) {
        double x = LEFT + plotW * (r.call() / 1e9) / seconds;
        double y = TOP + plotH - 4 - 6 * i;
        s.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>%n",
            x, x, y - 4, y, r.status() == Status.FAIL ? "#ff7f0e" : "#d62728"));
      }
      int ly = TOP + 10 + 30 * i;
      s.append(String.format(Locale.ROOT, "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"%s\" "
          + "stroke-width=\"2\"/>%n", WIDTH - RIGHT + 10, WIDTH - RIGHT + 30, ly, ly, colour));
      s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%s</text>%n", WIDTH - RIGHT + 34, ly + 4,
          escape(e.getKey())));
      s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"9\">p99 solid, max dashed</text>%n",
          WIDTH - RIGHT + 34, ly + 15));
      i++;
    }
    int ly = TOP + 10 + 30 * i;
    s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"9\">ticks at bottom: failed "
        + "(orange), indeterminate (red)</text>%n", WIDTH - RIGHT + 10, ly));
    s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"9\">shaded: kill (dark), pause, "
        + "partition (blue)</text>%n", WIDTH - RIGHT + 10, ly + 12));
    s.append("</svg>\n");
    return s.toString();
  }

  private static double y(double ms, double bottom, double top, int plotH) {
    double f = (Math.log10(ms) - Math.log10(bottom)) / (Math.log10(top) - Math.log10(bottom));
    return TOP + plotH * (1 - Math.min(1, Math.max(0, f)));
  }

  private static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
