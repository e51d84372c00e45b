package io.cassette.coordinator.ring.repair;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What this node streams and receives now, for {@code nodetool netstats}: each outgoing stream
 * (a table's ranges to one peer) with the bytes and partitions sent so far, and per peer the
 * batches received. Finished outgoing streams are kept for a while (the last {@link #KEPT}).
 * Thread-safe; counters are updated by the streaming threads.
 */
public final class StreamProgress {
  /** Finished outgoing streams kept for netstats. */
  static final int KEPT = 32;
  /** A peer whose last batch is older than this is no longer shown as "receiving". */
  static final long RECEIVING_MILLIS = 10_000;

  /** One outgoing stream. */
  public static final class Outgoing {
    public final long id;
    public final String purpose;
    public final InetAddress peer;
    public final String keyspace;
    public final String table;
    public final long startedMillis;
    final AtomicLong bytes = new AtomicLong();
    final AtomicLong partitions = new AtomicLong();
    volatile boolean done;

    Outgoing(long id, String purpose, InetAddress peer, String keyspace, String table) {
      this.id = id;
      this.purpose = purpose;
      this.peer = peer;
      this.keyspace = keyspace;
      this.table = table;
      this.startedMillis = System.currentTimeMillis();
    }

    public long bytes() {
      return bytes.get();
    }

    public long partitions() {
      return partitions.get();
    }

    public boolean done() {
      return done;
    }
  }

  /** Batches received from one peer since this node started. */
  public static final class Incoming {
    public final InetAddress peer;
    final AtomicLong bytes = new AtomicLong();
    final AtomicLong batches = new AtomicLong();
    final AtomicLong refused = new AtomicLong();
    volatile long lastMillis;

    Incoming(InetAddress peer) {
      this.peer = peer;
    }

    public long bytes() {
      return bytes.get();
    }

    public long batches() {
      return batches.get();
    }

    /** Batches refused as damaged (checksum, length), each sent again by the peer. */
    public long refused() {
      return refused.get();
    }

    public boolean active() {
      return System.currentTimeMillis() - lastMillis < RECEIVING_MILLIS;
    }
  }

  private final AtomicLong ids = new AtomicLong();
  private final List<Outgoing> outgoing = new ArrayList<>(); // guarded by this
  private final Map<InetAddress, Incoming> incoming = new ConcurrentHashMap<>();
  private final AtomicLong totalSent = new AtomicLong();
  private final AtomicLong totalReceived = new AtomicLong();

  Outgoing start(String purpose, InetAddress peer, String keyspace, String table) {
    Outgoing o = new Outgoing(ids.incrementAndGet(), purpose, peer, keyspace, table);
    synchronized (this) {
      outgoing.add(o);
      int finished = 0;
      for (Outgoing x : outgoing) {
        finished += x.done ? 1 : 0;
      }
      for (int i = 0; i < outgoing.size() && finished > KEPT; i++) {
        if (outgoing.get(i).done) {
          outgoing.remove(i--);
          finished--;
        }
      }
    }
    return o;
  }

  void sent(Outgoing o, long bytes, long partitions) {
    o.bytes.addAndGet(bytes);
    o.partitions.addAndGet(partitions);
    totalSent.addAndGet(bytes);
  }

  void finish(Outgoing o) {
    o.done = true;
  }

  void received(InetAddress peer, long bytes, boolean ok) {
    Incoming in = incoming.computeIfAbsent(peer, Incoming::new);
    if (ok) {
      in.bytes.addAndGet(bytes);
      in.batches.incrementAndGet();
      totalReceived.addAndGet(bytes);
    } else {
      in.refused.incrementAndGet();
    }
    in.lastMillis = System.currentTimeMillis();
  }

  /** Outgoing streams, oldest first (those finished lately included). */
  public synchronized List<Outgoing> outgoing() {
    return List.copyOf(outgoing);
  }

  /** Peers that have streamed to this node. */
  public List<Incoming> incoming() {
    return List.copyOf(incoming.values());
  }

  public long totalSent() {
    return totalSent.get();
  }

  public long totalReceived() {
    return totalReceived.get();
  }
}
