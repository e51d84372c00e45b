package io.cassette.server.ring;

import io.cassette.server.http.AdminHttpServer.Request;
import io.cassette.server.http.AdminHttpServer.Response;
import io.cassette.server.http.JsonWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.function.Consumer;

/**
 * Long admin commands (repair, decommission, removenode) run on a thread of their own while
 * nodetool polls their progress; Cassandra runs them over JMX and sends notifications. One
 * instance per endpoint:
 * <ul>
 *   <li>{@link #start} runs the work on a daemon thread and answers {@code {"id": N}};
 *   <li>{@link #progress} answers {@code GET ?id=N&from=K}: the progress lines from the K-th on
 *       (each with the time it was added, ms), {@code next}, {@code done}, and {@code error}
 *       once a job that failed is done.
 * </ul>
 * The last {@link #KEPT} jobs are kept so that a nodetool that reconnects can read the end.
 * Thread-safe.
 */
final class AdminJobs {
  /** Finished jobs kept for their progress lines. */
  static final int KEPT = 16;

  /** What a job is called in "Unknown …" answers ("repair", "ring change"). */
  private final String what;
  private final Map<Integer, Job> jobs = new ConcurrentHashMap<>();
  private final AtomicInteger ids = new AtomicInteger();

  AdminJobs(String what) {
    this.what = what;
  }

  /** One job's progress: lines are appended by the job's thread, read by pollers. */
  private static final class Job {
    final List<Long> times = new ArrayList<>();
    final List<String> lines = new ArrayList<>();
    volatile boolean done;
    volatile String error;

    synchronized void add(String line) {
      lines.add(line);
      times.add(System.currentTimeMillis());
    }
  }

  /**
   * Starts {@code work} (given a sink for its progress lines) on a thread named
   * {@code threadPrefix + id}. If it throws, {@code failure} (given the exception and the
   * sink, for a last line) returns the job's error text.
   */
  Response start(String threadPrefix, Consumer<Consumer<String>> work,
                 BiFunction<RuntimeException, Consumer<String>, String> failure) {
    int id = ids.incrementAndGet();
    Job job = new Job();
    jobs.put(id, job);
    jobs.keySet().removeIf(k -> k <= id - KEPT);
    Thread t = new Thread(() -> {
      try {
        work.accept(job::add);
      } catch (RuntimeException ex) {
        job.error = failure.apply(ex, job::add);
      } finally {
        job.done = true;
      }
    }, threadPrefix + id);
    t.setDaemon(true);
    t.start();
    return Response.json(new JsonWriter().beginObject().field("id", id).endObject().toString());
  }

  /** The answer to {@code GET ?id=N&from=K}: 400 for numbers that are not, 404 for an unknown id. */
  Response progress(Request req) {
    Job job;
    int from;
    try {
      job = jobs.get(Integer.parseInt(first(req.parameters(), "id")));
      String f = first(req.parameters(), "from");
      from = f == null ? 0 : Integer.parseInt(f);
    } catch (NumberFormatException ex) {
      return new Response(400, "application/json", JsonWriter.error("id and from must be numbers"));
    }
    if (job == null) {
      return new Response(404, "application/json", JsonWriter.error("Unknown " + what));
    }
    boolean done = job.done; // read before the lines: every line of a finished job is then seen
    JsonWriter w = new JsonWriter().beginObject().name("lines").beginArray();
    int next;
    synchronized (job) {
      for (int i = Math.max(0, from); i < job.lines.size(); i++) {
        w.beginObject().field("time", job.times.get(i)).field("text", job.lines.get(i)).endObject();
      }
      next = job.lines.size();
    }
    w.endArray().field("next", next).field("done", done);
    if (done && job.error != null) {
      w.field("error", job.error);
    }
    return Response.json(w.endObject().toString());
  }

  /** The first value of a request parameter, or null. */
  static String first(Map<String, List<String>> p, String name) {
    List<String> v = p.get(name);
    return v == null || v.isEmpty() ? null : v.get(0);
  }
}
