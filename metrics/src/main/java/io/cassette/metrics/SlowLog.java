package io.cassette.metrics;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Redis's slow log, for either front door: requests that took at least
 * {@code slowlog-log-slower-than} microseconds (negative: log nothing; 0: log everything) are
 * kept, newest first, up to {@code slowlog-max-len} entries. Arguments are cut as Redis cuts
 * them: at most {@link #MAX_ARGS} (the last one saying how many more there were), each at most
 * {@code maxArgBytes} bytes (followed by how many more bytes there were).
 *
 * <p>Front doors test {@link #isSlow} first and build the arguments only for a slow request,
 * so a fast request costs one volatile read. Thread-safe.
 */
public final class SlowLog {
  /** Redis's default slowlog-log-slower-than: 10 ms. */
  public static final long DEFAULT_SLOWER_THAN_MICROS = 10_000;
  /** Redis's default slowlog-max-len. */
  public static final int DEFAULT_MAX_LEN = 128;
  /** Redis's SLOWLOG_ENTRY_MAX_ARGC. */
  public static final int MAX_ARGS = 32;
  /** Redis's SLOWLOG_ENTRY_MAX_STRING; the CQL door passes a larger limit for statements. */
  public static final int REDIS_MAX_ARG_BYTES = 128;
  /** Entries {@code SLOWLOG GET} returns when no count is given. */
  public static final int DEFAULT_GET_COUNT = 10;

  private final int maxArgBytes;
  private final LongSupplier clockMillis;
  private final ArrayDeque<SlowLogEntry> entries = new ArrayDeque<>(); // newest first; guarded by this
  private volatile long slowerThanMicros = DEFAULT_SLOWER_THAN_MICROS;
  private volatile int maxLen = DEFAULT_MAX_LEN;
  private long nextId; // guarded by this

  public SlowLog() {
    this(REDIS_MAX_ARG_BYTES, System::currentTimeMillis);
  }

  public SlowLog(int maxArgBytes, LongSupplier clockMillis) {
    this.maxArgBytes = maxArgBytes;
    this.clockMillis = clockMillis;
  }

  /** Whether a request that took {@code micros} belongs in the log. */
  public boolean isSlow(long micros) {
    long t = slowerThanMicros;
    return t >= 0 && micros >= t;
  }

  /** Logs a request if slow; args are strings (a CQL statement, or already-decoded arguments). */
  public void add(long micros, List<String> args, String client, String clientName) {
    if (!isSlow(micros)) {
      return;
    }
    List<String> cut = new ArrayList<>(Math.min(args.size(), MAX_ARGS));
    for (int i = 0; i < args.size(); i++) {
      if (i == MAX_ARGS - 1 && args.size() > MAX_ARGS) {
        cut.add("... (" + (args.size() - MAX_ARGS + 1) + " more arguments)");
        break;
      }
      byte[] b = args.get(i).getBytes(StandardCharsets.UTF_8);
      cut.add(b.length > maxArgBytes ? cut(b) : args.get(i));
    }
    append(micros, cut, client, clientName);
  }

  /** Logs a Redis command given as its first {@code argc} arguments, if slow. */
  public void add(long micros, byte[][] argv, int argc, String client, String clientName) {
    if (!isSlow(micros)) {
      return;
    }
    List<String> cut = new ArrayList<>(Math.min(argc, MAX_ARGS));
    for (int i = 0; i < argc; i++) {
      if (i == MAX_ARGS - 1 && argc > MAX_ARGS) {
        cut.add("... (" + (argc - MAX_ARGS + 1) + " more arguments)");
        break;
      }
      cut.add(argv[i].length > maxArgBytes ? cut(argv[i]) : new String(argv[i], StandardCharsets.UTF_8));
    }
    append(micros, cut, client, clientName);
  }

  private String cut(byte[] b) {
    return new String(b, 0, maxArgBytes, StandardCharsets.UTF_8) + "... (" + (b.length - maxArgBytes)
        + " more bytes)";
  }

  private synchronized void append(long micros, List<String> args, String client, String clientName) {
    entries.addFirst(new SlowLogEntry(nextId++, clockMillis.getAsLong() / 1000, micros, List.copyOf(args),
        client == null ? "" : client, clientName == null ? "" : clientName));
    trim();
  }

  /** The newest {@code count} entries, newest first; a negative count means all ({@code SLOWLOG GET}). */
  public synchronized List<SlowLogEntry> get(int count) {
    int n = count < 0 ? entries.size() : Math.min(count, entries.size());
    List<SlowLogEntry> out = new ArrayList<>(n);
    Iterator<SlowLogEntry> it = entries.iterator();
    for (int i = 0; i < n; i++) {
      out.add(it.next());
    }
    return out;
  }

  /** {@code SLOWLOG LEN}. */
  public synchronized int length() {
    return entries.size();
  }

  /** {@code SLOWLOG RESET}: forgets the entries; ids keep increasing. */
  public synchronized void reset() {
    entries.clear();
  }

  /** {@code slowlog-log-slower-than}: negative disables, 0 logs every request. */
  public void setSlowerThanMicros(long micros) {
    slowerThanMicros = micros;
  }

  public long slowerThanMicros() {
    return slowerThanMicros;
  }

  /** {@code slowlog-max-len}; a shorter length drops the oldest entries at once. */
  public synchronized void setMaxLen(int len) {
    if (len < 0) {
      throw new IllegalArgumentException("slowlog-max-len: " + len + " (expected: >= 0)");
    }
    maxLen = len;
    trim();
  }

  public int maxLen() {
    return maxLen;
  }

  private void trim() {
    while (entries.size() > maxLen) {
      entries.removeLast();
    }
  }
}
