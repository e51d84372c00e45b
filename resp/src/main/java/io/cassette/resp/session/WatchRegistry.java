package io.cassette.resp.session;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Which sessions WATCH which keys; a write to a watched key marks the watchers dirty so their
 * EXEC fails (optimistic locking). Command thread only.
 */
public final class WatchRegistry {
  private final Map<Session.KeyRef, Set<Session>> watchers = new HashMap<>();

  public void watch(Session s, int db, byte[] key) {
    Session.KeyRef ref = Session.KeyRef.of(db, key.clone());
    if (s.watched.add(ref)) {
      watchers.computeIfAbsent(ref, k -> new HashSet<>()).add(s);
    }
  }

  public void unwatchAll(Session s) {
    for (Session.KeyRef ref : s.watched) {
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
}
