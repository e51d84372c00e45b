package io.cassette.resp.server;

import java.util.concurrent.atomic.AtomicLong;

/** Counters INFO stats reports; CONFIG RESETSTAT zeroes them. Thread-safe. */
public final class ServerStats {
  public final AtomicLong connectionsReceived = new AtomicLong();
  public final AtomicLong connectionsRejected = new AtomicLong();
  public final AtomicLong commandsProcessed = new AtomicLong();
  public final AtomicLong expiredKeys = new AtomicLong();
  public final AtomicLong keyspaceHits = new AtomicLong();
  public final AtomicLong keyspaceMisses = new AtomicLong();
  public final AtomicLong pubsubClientsKilled = new AtomicLong();
  public final AtomicLong errorReplies = new AtomicLong();
  /** Clients closed by client-output-buffer-limit or the node's output budget. */
  public final AtomicLong outputLimitClientsKilled = new AtomicLong();
  public final AtomicLong netInputBytes = new AtomicLong();
  public final AtomicLong netOutputBytes = new AtomicLong();
  /** Error replies by their code (ERR, WRONGTYPE, NOSCRIPT...): INFO errorstats. */
  public final java.util.Map<String, AtomicLong> errorCodes =
      new java.util.concurrent.ConcurrentSkipListMap<>();

  /**
   * INFO commandstats' zero: each command's calls, microseconds and failed calls as they were
   * at the last CONFIG RESETSTAT (the node's request metrics keep counting for /metrics, so
   * the section reports the difference, and lists only commands called since, as Redis).
   */
  public final java.util.Map<String, long[]> commandBaseline = new java.util.concurrent.ConcurrentHashMap<>();

  /** Counts one error reply whose text (without '-') is {@code text}. */
  public void countError(String text) {
    errorReplies.incrementAndGet();
    int space = text.indexOf(' ');
    String code = space < 0 ? text : text.substring(0, space);
    if (code.length() > 64 || errorCodes.size() >= 128 && !errorCodes.containsKey(code)) {
      code = "ERR"; // Redis caps its error-code table too: unknown codes count as ERR
    }
    errorCodes.computeIfAbsent(code, k -> new AtomicLong()).incrementAndGet();
  }

  public void reset() {
    for (AtomicLong a : new AtomicLong[] {connectionsReceived, connectionsRejected,
        commandsProcessed, expiredKeys, keyspaceHits, keyspaceMisses, pubsubClientsKilled,
        errorReplies, outputLimitClientsKilled, netInputBytes, netOutputBytes}) {
      a.set(0);
    }
    errorCodes.clear();
  }
}
