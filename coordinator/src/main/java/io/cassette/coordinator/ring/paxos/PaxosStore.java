package io.cassette.coordinator.ring.paxos;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;

/**
 * A replica's Paxos state per partition ({@link PaxosState}), in memory and, when given a
 * directory, in a {@link PaxosLog} written before any answer depends on it and fsynced as the
 * commit log's mode says (Cassandra keeps the same registers in {@code system.paxos}, written
 * through its commit log).
 *
 * <p>Cleaning: a partition whose newest ballot is older than the purge grace and has no
 * accepted proposal newer than its commit is forgotten, and the store's <em>low bound</em>
 * rises to that ballot: every prepare or proposal at or below the low bound is refused, as if
 * each forgotten partition still held its promise (Cassandra's paxos repair low bound plays this
 * part). The coordinator, refused, picks a newer ballot. Thread-safe: one partition's changes
 * are serialised by a lock stripe.
 */
public final class PaxosStore implements AutoCloseable {
  /** Cassandra's {@code paxos_purge_grace_period} default: 60 s. */
  public static final long PURGE_GRACE_MICROS = 60_000_000L;
  private static final byte[] LOW_BOUND_KEY = new byte[0];
  private static final long REWRITE_BYTES = 4 << 20;

  private record Key(String keyspace, String table, ByteBuffer key) {}

  private final Map<Key, PaxosState> states = new ConcurrentHashMap<>();
  private final Object[] stripes = new Object[64];
  private final PaxosLog log;
  private final long purgeGraceMicros;
  private final LongSupplier nowMicros;
  private volatile Ballot lowBound = Ballot.NONE;
  private long operations;

  /** In memory only (tests, single-JVM harness): lost on restart. */
  public static PaxosStore inMemory() {
    return new PaxosStore(null, 60_000_000L, () -> System.currentTimeMillis() * 1000);
  }

  /**
   * Durable in {@code dir}, fsynced before each answer (commitlog_sync batch or group); states
   * whose newest ballot is older than {@code purgeGraceMicros} are cleaned.
   */
  public static PaxosStore open(Path dir, long purgeGraceMicros, LongSupplier nowMicros) {
    return open(dir, purgeGraceMicros, nowMicros, 0);
  }

  /**
   * As {@link #open(Path, long, LongSupplier)}; {@code syncPeriodMillis} &gt; 0 (commitlog_sync
   * periodic, its commitlog_sync_period): written before each answer, fsynced in the background
   * every period (see {@link PaxosLog}).
   */
  public static PaxosStore open(Path dir, long purgeGraceMicros, LongSupplier nowMicros, long syncPeriodMillis) {
    return new PaxosStore(new PaxosLog(dir, syncPeriodMillis), purgeGraceMicros, nowMicros);
  }

  private PaxosStore(PaxosLog log, long purgeGraceMicros, LongSupplier nowMicros) {
    for (int i = 0; i < stripes.length; i++) {
      stripes[i] = new Object();
    }
    this.log = log;
    this.purgeGraceMicros = purgeGraceMicros;
    this.nowMicros = nowMicros;
    if (log != null) {
      log.open(body -> {
        PaxosCodec.StateRecord r = PaxosCodec.state(body);
        if (r.keyspace().isEmpty() && r.key().length == 0) {
          lowBound = Ballot.max(lowBound, r.state().promised());
        } else {
          states.put(new Key(r.keyspace(), r.table(), ByteBuffer.wrap(r.key())), r.state());
        }
      });
    }
  }

  /** The state of a partition (EMPTY when none). */
  public PaxosState get(String keyspace, String table, byte[] key) {
    return states.getOrDefault(new Key(keyspace, table, ByteBuffer.wrap(key)), PaxosState.EMPTY);
  }

  /** A partition with a round in progress: its table and key. */
  public record InProgress(String table, byte[] key) {}

  /**
   * The partitions of {@code keyspace} whose key passes {@code keys} and that hold an accepted
   * proposal with updates newer than their commit: rounds that may have been decided and not
   * yet committed everywhere (what a ring change must complete before a new replica serves).
   */
  public List<InProgress> inProgress(String keyspace, java.util.function.Predicate<byte[]> keys) {
    List<InProgress> out = new ArrayList<>();
    for (Map.Entry<Key, PaxosState> e : states.entrySet()) {
      PaxosState s = e.getValue();
      if (!e.getKey().keyspace().equals(keyspace) || s.accepted() == null || s.accepted().isEmpty()
          || (s.committed() != null && !s.accepted().ballot().isAfter(s.committed().ballot()))) {
        continue;
      }
      byte[] key = new byte[e.getKey().key().remaining()];
      e.getKey().key().duplicate().get(key);
      if (keys.test(key)) {
        out.add(new InProgress(e.getKey().table(), key));
      }
    }
    return out;
  }

  /** Ballots at or below this are refused everywhere (see the class comment). */
  public Ballot lowBound() {
    return lowBound;
  }

  public int size() {
    return states.size();
  }

  /**
   * Changes one partition's state atomically: {@code change} sees the current state and returns
   * the new one (the same instance: nothing to write). The new state is durable before this returns.
   */
  public PaxosState update(String keyspace, String table, byte[] key, UnaryOperator<PaxosState> change) {
    Key k = new Key(keyspace, table, ByteBuffer.wrap(key.clone()));
    PaxosState next;
    synchronized (stripes[(k.hashCode() & 0x7fffffff) % stripes.length]) {
      PaxosState current = states.getOrDefault(k, PaxosState.EMPTY);
      next = change.apply(current);
      if (next != current) {
        if (log != null) {
          log.append(PaxosCodec.state(new PaxosCodec.StateRecord(keyspace, table, key, next)));
        }
        states.put(k, next);
      }
    }
    maybeClean();
    return next;
  }

  private void maybeClean() {
    synchronized (this) {
      if (++operations % 1024 != 0) {
        return;
      }
    }
    clean();
  }

  /** Forgets finished partitions older than the purge grace and compacts the log (see the class comment). */
  public synchronized void clean() {
    long horizon = nowMicros.getAsLong() - purgeGraceMicros;
    Ballot bound = lowBound;
    for (Iterator<Map.Entry<Key, PaxosState>> it = states.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<Key, PaxosState> e = it.next();
      Key k = e.getKey();
      synchronized (stripes[(k.hashCode() & 0x7fffffff) % stripes.length]) {
        PaxosState s = states.get(k);
        if (s == null) {
          continue;
        }
        boolean inProgress = s.accepted() != null
            && (s.committed() == null || s.accepted().ballot().isAfter(s.committed().ballot()));
        if (!inProgress && s.latest().micros() < horizon) {
          bound = Ballot.max(bound, s.latest());
          it.remove();
        }
      }
    }
    if (bound != lowBound) {
      lowBound = bound;
      if (log != null) {
        log.append(lowBoundRecord(bound));
      }
    }
    if (log != null && log.size() > REWRITE_BYTES) {
      withAllStripes(0, this::rewrite); // no change may land in the old file after the snapshot
    }
  }

  private void withAllStripes(int i, Runnable r) {
    if (i == stripes.length) {
      r.run();
    } else {
      synchronized (stripes[i]) {
        withAllStripes(i + 1, r);
      }
    }
  }

  private void rewrite() {
    {
      List<byte[]> bodies = new ArrayList<>();
      bodies.add(lowBoundRecord(lowBound));
      for (Map.Entry<Key, PaxosState> e : states.entrySet()) {
        byte[] key = new byte[e.getKey().key().remaining()];
        e.getKey().key().duplicate().get(key);
        bodies.add(PaxosCodec.state(new PaxosCodec.StateRecord(e.getKey().keyspace(), e.getKey().table(), key,
            e.getValue())));
      }
      log.rewrite(bodies);
    }
  }

  private static byte[] lowBoundRecord(Ballot b) {
    return PaxosCodec.state(new PaxosCodec.StateRecord("", "", LOW_BOUND_KEY, new PaxosState(b, null, null)));
  }

  @Override
  public void close() {
    if (log != null) {
      log.close();
    }
  }
}
