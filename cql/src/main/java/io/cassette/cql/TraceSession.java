package io.cassette.cql;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One traced request, as Cassandra records it in {@code system_traces.sessions} and
 * {@code system_traces.events}: what was asked (request, parameters), by whom, when, how long
 * it took, and the steps taken ("Parsing ...", "Executing single-partition query on t", ...),
 * each with the µs elapsed since the request started and the thread that did it.
 *
 * <p>The transport opens it ({@link Tracing#begin}), the language adds parameters and events
 * while executing, and the transport closes it ({@link #finish}) and hands it to
 * {@link QueryHandler#traced}, which stores it and names it (the session id).
 *
 * <p>Thread-safety: events may be added from any thread (synchronized); the rest is set by
 * the request's own thread.
 */
public final class TraceSession {
  /** A session keeps at most this many events; a request that traces more is cut short (memory bound). */
  public static final int MAX_EVENTS = 512;

  /** One step of the request. */
  public record Event(String activity, long elapsedMicros, String thread) {}

  private final long startedAtMillis = System.currentTimeMillis();
  private final long startNanos = System.nanoTime();
  private final InetAddress client;
  private final String command;
  private String request;
  private final Map<String, String> parameters = new LinkedHashMap<>();
  private final List<Event> events = new ArrayList<>();
  /** Whether the client asked for it (then the response carries the id); false when sampled. */
  private final boolean requestedByClient;
  private long durationMicros = -1;

  /**
   * @param client            the client's address, or null when unknown
   * @param command           Cassandra's command name: QUERY (every CQL request), REPAIR
   * @param request           the request's description, e.g. "Execute CQL3 query"
   * @param requestedByClient true when the client set the tracing flag
   */
  public TraceSession(InetAddress client, String command, String request, boolean requestedByClient) {
    this.client = client;
    this.command = command;
    this.request = request;
    this.requestedByClient = requestedByClient;
  }

  /** Adds a step with its elapsed time since the start of the request. */
  public synchronized void event(String activity) {
    if (events.size() < MAX_EVENTS) {
      events.add(new Event(activity, (System.nanoTime() - startNanos) / 1000, Thread.currentThread().getName()));
    }
  }

  public synchronized List<Event> events() {
    return Collections.unmodifiableList(new ArrayList<>(events));
  }

  /** Adds or replaces a request parameter (query, consistency_level, bound values ...). */
  public synchronized void parameter(String name, String value) {
    parameters.put(name, value);
  }

  public synchronized Map<String, String> parameters() {
    return new LinkedHashMap<>(parameters);
  }

  public void request(String description) {
    this.request = description;
  }

  public String request() {
    return request;
  }

  public String command() {
    return command;
  }

  public InetAddress client() {
    return client;
  }

  public long startedAtMillis() {
    return startedAtMillis;
  }

  public boolean requestedByClient() {
    return requestedByClient;
  }

  /** Ends the session: fixes its duration. */
  public void finish() {
    durationMicros = (System.nanoTime() - startNanos) / 1000;
  }

  /** µs from start to {@link #finish}, or -1 while running. */
  public long durationMicros() {
    return durationMicros;
  }
}
