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

  public void reset() {
    for (AtomicLong a : new AtomicLong[] {connectionsReceived, connectionsRejected,
        commandsProcessed, expiredKeys, keyspaceHits, keyspaceMisses, pubsubClientsKilled,
        errorReplies, outputLimitClientsKilled, netInputBytes, netOutputBytes}) {
      a.set(0);
    }
  }
}
