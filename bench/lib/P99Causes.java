import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;

/**
 * Which of the slowest 1% of a stress phase coincide with a GC pause or with background work
 * (compaction, memtable flush) on the node: the stress HdrHistogram log's intervals (epoch
 * stamped) lined up with the node's GC log (-Xlog:gc with the timemillis decorator) and, when
 * given, the JFR recording's execution samples of the background threads.
 *
 * <p>A request is "slow" when above the phase's p99. An interval "has" a pause when the pause
 * overlaps it or ended within the previous interval (a request that waited on a pause finishes
 * just after it); likewise for background threads sampled running.
 *
 * <pre>java -cp dist/target/cassette/lib/HdrHistogram-2.2.2.jar bench/lib/P99Causes.java PHASE.hdr gc.log [node.jfr]</pre>
 */
public class P99Causes {
  record Span(long start, long end, String what) {}

  public static void main(String[] args) throws Exception {
    List<Histogram> intervals = new ArrayList<>();
    Histogram total = null;
    try (HistogramLogReader r = new HistogramLogReader(new File(args[0]))) {
      EncodableHistogram e;
      while ((e = r.nextIntervalHistogram()) != null) {
        Histogram h = (Histogram) e;
        intervals.add(h);
        if (total == null) {
          total = new Histogram(3);
        }
        total.add(h);
      }
    }
    long t0 = intervals.get(0).getStartTimeStamp();
    long t1 = intervals.get(intervals.size() - 1).getEndTimeStamp();
    long p99 = total.getValueAtPercentile(99.0);
    // Pauses from the GC log: "[<epoch ms>ms][<uptime>ms] GC(n) Pause Young (...) a->b(c) 12.3ms".
    List<Span> pauses = new ArrayList<>();
    Pattern gc = Pattern.compile("^\\[(\\d+)ms\\]\\[\\d+ms\\] GC\\(\\d+\\) Pause (\\S+).* ([0-9.]+)ms$");
    Pattern cpu = Pattern.compile("^\\[(\\d+)ms\\]\\[\\d+ms\\] GC\\(\\d+\\) User=([0-9.]+)s Sys=([0-9.]+)s Real=([0-9.]+)s$");
    double gcCpu = 0;
    for (String line : Files.readAllLines(Path.of(args[1]))) {
      Matcher c = cpu.matcher(line);
      if (c.matches()) {
        long at = Long.parseLong(c.group(1));
        if (at >= t0 && at <= t1) {
          gcCpu += Double.parseDouble(c.group(2)) + Double.parseDouble(c.group(3));
        }
      }
      Matcher m = gc.matcher(line);
      if (m.matches()) {
        long end = Long.parseLong(m.group(1));
        long dur = (long) Math.ceil(Double.parseDouble(m.group(3)));
        if (end >= t0 && end - dur <= t1) {
          pauses.add(new Span(end - dur, end, m.group(2) + " " + m.group(3) + "ms"));
        }
      }
    }
    // Background threads running, from JFR execution samples (each one marks +-10 ms).
    List<Span> background = new ArrayList<>();
    TreeMap<String, Integer> samplesByThread = new TreeMap<>();
    if (args.length > 2) {
      try (RecordingFile f = new RecordingFile(Path.of(args[2]))) {
        while (f.hasMoreEvents()) {
          RecordedEvent ev = f.readEvent();
          if (!ev.getEventType().getName().equals("jdk.ExecutionSample")) {
            continue;
          }
          long at = ev.getStartTime().toEpochMilli();
          if (at < t0 || at > t1) {
            continue;
          }
          String thread = ev.getThread("sampledThread").getJavaName();
          String kind = thread == null ? "?" : thread.replaceAll("-?\\d+$", "");
          samplesByThread.merge(kind, 1, Integer::sum);
          if (kind.startsWith("compaction") || kind.startsWith("memtable-flush")) {
            background.add(new Span(at - 10, at + 10, kind));
          }
        }
      }
    }
    long slow = 0, slowGc = 0, slowBg = 0, slowBoth = 0, withGc = 0, withBg = 0;
    for (Histogram h : intervals) {
      long s = h.getStartTimeStamp(), e = h.getEndTimeStamp(), len = e - s;
      long n = h.getTotalCount() - h.getCountBetweenValues(0, p99);
      boolean g = pauses.stream().anyMatch(p -> p.end >= s - len && p.start <= e);
      boolean b = background.stream().anyMatch(p -> p.end >= s - len && p.start <= e);
      slow += n;
      if (g) { slowGc += n; withGc++; }
      if (b) { slowBg += n; withBg++; }
      if (g && b) { slowBoth += n; }
    }
    double pauseMs = pauses.stream().mapToLong(p -> p.end - p.start).sum();
    System.out.printf("%s: %d ops in %d intervals of %d ms over %.1f s; p50 %.2f ms, p99 %.2f ms, p99.9 %.2f ms%n",
        args[0], total.getTotalCount(), intervals.size(), intervals.get(0).getEndTimeStamp() - t0,
        (t1 - t0) / 1000.0, total.getValueAtPercentile(50) / 1e6, p99 / 1e6,
        total.getValueAtPercentile(99.9) / 1e6);
    System.out.printf("  GC pauses in the phase: %d, %.0f ms in all (%.1f%% of the time; GC CPU %.2f s), longest %s%n",
        pauses.size(), pauseMs, 100 * pauseMs / (t1 - t0), gcCpu,
        pauses.stream().max((a, c) -> Long.compare(a.end - a.start, c.end - c.start)).map(Span::what).orElse("-"));
    System.out.printf("  slowest 1%% (> p99): %d ops; in intervals with a GC pause: %d (%.0f%%; such intervals are %.0f%% of all)%n",
        slow, slowGc, 100.0 * slowGc / slow, 100.0 * withGc / intervals.size());
    if (args.length > 2) {
      System.out.printf("  in intervals with compaction or flush running: %d (%.0f%%; %.0f%% of intervals); with both: %d; with neither: %d (%.0f%%)%n",
          slowBg, 100.0 * slowBg / slow, 100.0 * withBg / intervals.size(), slowBoth,
          slow - slowGc - slowBg + slowBoth, 100.0 * (slow - slowGc - slowBg + slowBoth) / slow);
      System.out.println("  JFR execution samples by thread in the phase: " + samplesByThread);
    }
  }
}
