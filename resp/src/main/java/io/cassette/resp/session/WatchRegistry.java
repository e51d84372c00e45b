package io.cassette.resp.session;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Which sessions WATCH which keys; a write to a watched key marks the watchers dirty so their
 * EXEC fails (optimistic locking). Command thread only.
 *
 * <p>What all watches take of the heap is counted ({@link #cost}) against {@link #maxBytes()}:
 * WATCH calls accumulate until EXEC/DISCARD/UNWATCH, so without a bound one client repeating
 * WATCH with new keys (each call up to the arguments limit) grew the heap without end. Redis
 * has no bound (its keys are in memory anyway).
 */
public final class WatchRegistry {
  /** A HashMap entry, a KeyRef, its ByteBuffer and a HashSet with one session, roughly. */
  public static final long WATCH_OVERHEAD_BYTES = 200;

  private final Map<Session.KeyRef, Set<Session>> watchers = new HashMap<>();
  private long bytes;
  private long maxBytes = Long.MAX_VALUE;

  /** What watching {@code key} costs the heap, as counted against {@link #maxBytes()}. */
  public static long cost(byte[] key) {
    return key.length + WATCH_OVERHEAD_BYTES;
  }

  public void maxBytes(long limit) {
    this.maxBytes = limit;
  }

  public long maxBytes() {
    return maxBytes;
  }

  /** What all sessions' watches take now. */
  public long bytes() {
    return bytes;
  }

  public void watch(Session s, int db, byte[] key) {
    Session.KeyRef ref = Session.KeyRef.of(db, key.clone());
    if (s.watched.add(ref)) {
      watchers.computeIfAbsent(ref, k -> new HashSet<>()).add(s);
      bytes += cost(key);
    }
  }

  public void unwatchAll(Session s) {
    for (Session.KeyRef ref : s.watched) {
      bytes -= ref.key().remaining() + WATCH_OVERHEAD_BYTES;
      Set<Session> set = watchers.get(ref);
      if (set != null) {
        set.remove(s);
        if (set.isEmpty()) {
          watchers.remove(ref);
        }
      }
    }
    s.watched.clear();
    s.watchDirty = false;
  }

  public void touch(int db, byte[] key) {
    if (watchers.isEmpty()) {
      return;
    }
    Set<Session> set = watchers.get(new Session.KeyRef(db, ByteBuffer.wrap(key)));
    if (set != null) {
      for (Session s : set) {
        s.watchDirty = true;
      }
    }
  }

  /** Marks every watcher of database {@code db} (or all databases when db < 0) dirty. */
  public void touchAll(int db) {
    for (Map.Entry<Session.KeyRef, Set<Session>> e : watchers.entrySet()) {
      if (db < 0 || e.getKey().db() == db) {
        for (Session s : e.getValue()) {
          s.watchDirty = true;
        }
      }
    }
  }

  /**
   * Marks dirty the watchers of keys of database {@code db} (all when db < 0) that
   * {@code exists}: FLUSHDB/FLUSHALL touch only watched keys they delete, as Redis does.
   */
  public void touchExisting(int db, java.util.function.BiPredicate<Integer, byte[]> exists) {
    for (Map.Entry<Session.KeyRef, Set<Session>> e : watchers.entrySet()) {
      Session.KeyRef k = e.getKey();
      if ((db < 0 || k.db() == db) && exists.test(k.db(), bytesOf(k.key()))) {
        for (Session s : e.getValue()) {
          s.watchDirty = true;
        }
      }
    }
  }

  private static byte[] bytesOf(ByteBuffer b) {
    byte[] out = new byte[b.remaining()];
    b.duplicate().get(out);
    return out;
  }
}
