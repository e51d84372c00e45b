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
 * What happened during a run, as one self-contained SVG: above, per workload the p99 (solid)
 * and max (faint) latency of each half-second bucket on a log scale, with failed and
 * indeterminate operations ticked at their call time, one row of ticks per workload; below,
 * the operations acknowledged per second (how much of the service the faults took away).
 * Every fault window is shaded across both and labelled; a killed node's window is dark while
 * it is down and light while it starts again (until its ready line).
 */
public final class LatencyChart {
  private static final int WIDTH = 1100;
  private static final int LEFT = 64;
  private static final int RIGHT = 230;
  private static final int TOP = 40;
  private static final int LATENCY_H = 300;
  private static final int GAP = 34;
  private static final int RATE_H = 110;
  private static final int BOTTOM = 40;
  private static final int HEIGHT = TOP + LATENCY_H + GAP + RATE_H + BOTTOM;
  private static final long BUCKET_NANOS = 500_000_000L;
  private static final String[] COLOURS = {"#1f77b4", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf"};
  /** Steps of the time axis, seconds: the first giving at most 12 labels. */
  private static final int[] TIME_STEPS = {1, 2, 5, 10, 15, 20, 30, 60, 120, 300, 600, 1800, 3600};

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
    int rateTop = TOP + LATENCY_H + GAP;
    double seconds = Math.max(1, runMillis / 1000.0);
    StringBuilder s = new StringBuilder();
    s.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
        + "font-family=\"sans-serif\" font-size=\"11\">%n", WIDTH, HEIGHT));
    s.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
    s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"20\" font-size=\"13\">%s</text>%n", LEFT, escape(title)));
    for (FaultWindow f : faults) {
      double x0 = x(f.start(), seconds, plotW);
      double xl = x(f.lifted(), seconds, plotW);
      double x1 = x(f.end(), seconds, plotW);
      String fill = switch (f.kind()) {
        case KILL -> "#f4a582";
        case PAUSE -> "#fddbc7";
        case DISK_FULL -> "#bababa";
        default -> "#d1e5f0";
      };
      for (int[] band : new int[][] {{TOP, LATENCY_H}, {rateTop, RATE_H}}) {
        s.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\" "
            + "opacity=\"0.8\"><title>%s</title></rect>%n", x0, band[0], Math.max(1, xl - x0), band[1], fill,
            escape(f.describe())));
        if (x1 > xl) { // a killed node starting again
          s.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\" "
              + "opacity=\"0.3\"><title>%s</title></rect>%n", xl, band[0], x1 - xl, band[1], fill,
              escape(f.describe())));
        }
      }
      s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" font-size=\"10\">%s%s</text>%n", x0 + 2,
          TOP + 12, f.kind().label(), f.node() > 0 ? " n" + f.node() : ""));
      if (x1 - xl > 40) {
        s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" font-size=\"9\" fill=\"#555\">starting</text>%n",
            xl + 2, TOP + 24));
      }
    }
    // Latency axes: log latency, linear time.
    for (double v = bottom; v <= top * 1.001; v *= 10) {
      double y = y(v, bottom, top);
      s.append(String.format(Locale.ROOT, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>%n",
          LEFT, LEFT + plotW, y, y));
      s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s ms</text>%n", LEFT - 4,
          y + 4, v < 1 ? String.format(Locale.ROOT, "%.1f", v) : String.format(Locale.ROOT, "%.0f", v)));
    }
    int step = TIME_STEPS[TIME_STEPS.length - 1];
    for (int candidate : TIME_STEPS) {
      if (seconds / candidate <= 12) {
        step = candidate;
        break;
      }
    }
    for (int t = 0; t <= seconds; t += step) {
      double x = x(t * 1000L, seconds, plotW);
      s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d s</text>%n", x,
          rateTop + RATE_H + 15, t));
      s.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#444\"/>%n", x, x,
          rateTop + RATE_H, rateTop + RATE_H + 4));
    }
    for (int y0 : new int[] {TOP, rateTop}) {
      s.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
          + "stroke=\"#444\"/>%n", LEFT, y0, plotW, y0 == TOP ? LATENCY_H : RATE_H));
    }
    s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">latency: p99 (solid) and max (faint) per 0.5 s"
        + "</text>%n", LEFT + 4, TOP - 4));
    s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">operations acknowledged per second</text>%n",
        LEFT + 4, rateTop - 4));

    // Acknowledged operations per second, per workload: the scale first.
    List<TreeMap<Long, Integer>> rates = new ArrayList<>();
    int maxRate = 1;
    for (List<OpRecord> ops : byWorkload.values()) {
      TreeMap<Long, Integer> perSecond = new TreeMap<>();
      for (OpRecord r : ops) {
        if (r.status() == Status.OK) {
          perSecond.merge(r.ret() / 1_000_000_000L, 1, Integer::sum);
        }
      }
      for (int n : perSecond.values()) {
        maxRate = Math.max(maxRate, n);
      }
      rates.add(perSecond);
    }
    s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%d/s</text>%n", LEFT - 4,
        rateTop + 8, maxRate));
    s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">0/s</text>%n", LEFT - 4,
        rateTop + RATE_H));

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
        p99.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y(Math.max(q, bottom), bottom, top)));
        max.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y(Math.max(m, bottom), bottom, top)));
      }
      s.append(String.format(Locale.ROOT, "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"0.8\" "
          + "opacity=\"0.35\"/>%n", max, colour));
      s.append(String.format(Locale.ROOT, "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"/>%n",
          p99, colour));
      // This workload's row of ticks at the bottom of the latency plot, named at its right end.
      double rowY = TOP + LATENCY_H - 4 - 7 * i;
      for (OpRecord r : bad) {
        double x = LEFT + plotW * (r.call() / 1e9) / seconds;
        s.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>%n",
            x, x, rowY - 5, rowY, r.status() == Status.FAIL ? "#ff7f0e" : "#d62728"));
      }
      s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" font-size=\"7\" fill=\"%s\">%s</text>%n",
          LEFT + plotW + 3, rowY, colour, escape(e.getKey())));
      StringBuilder rate = new StringBuilder();
      TreeMap<Long, Integer> perSecond = rates.get(i);
      long lastSecond = (long) Math.ceil(seconds);
      long firstSecond = perSecond.isEmpty() ? 0 : perSecond.firstKey();
      for (long t = firstSecond; t < lastSecond; t++) { // seconds with nothing acknowledged drawn at 0
        double x = x(t * 1000 + 500, seconds, plotW);
        double y = rateTop + RATE_H - RATE_H * (double) perSecond.getOrDefault(t, 0) / maxRate;
        rate.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
      }
      s.append(String.format(Locale.ROOT, "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.2\"/>%n",
          rate, colour));
      int ly = TOP + 10 + 22 * i;
      s.append(String.format(Locale.ROOT, "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"%s\" "
          + "stroke-width=\"2\"/>%n", WIDTH - RIGHT + 24, WIDTH - RIGHT + 44, ly, ly, colour));
      s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%s</text>%n", WIDTH - RIGHT + 48, ly + 4,
          escape(e.getKey())));
      i++;
    }
    int ly = TOP + 10 + 22 * i + 6;
    String[] notes = {
        "ticks under the latency, one row", "per workload: failed (orange),", "indeterminate (red)",
        "", "shaded: kill (orange; light:", "starting again), pause (pink),", "partitions (blue),", "full disk (grey)"};
    for (String n : notes) {
      s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"10\">%s</text>%n", WIDTH - RIGHT + 24,
          ly, n));
      ly += 13;
    }
    s.append("</svg>\n");
    return s.toString();
  }

  private static double x(long millis, double seconds, int plotW) {
    return LEFT + plotW * (millis / 1000.0) / seconds;
  }

  private static double y(double ms, double bottom, double top) {
    double f = (Math.log10(ms) - Math.log10(bottom)) / (Math.log10(top) - Math.log10(bottom));
    return TOP + LATENCY_H * (1 - Math.min(1, Math.max(0, f)));
  }

  private static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
