package io.cassette.resp.keyspace;

import java.util.ArrayList;
import java.util.List;

/**
 * What one command did to keys, as the databases saw its commits: keys created, changed,
 * removed, expired on the way. Keyspace notifications (Redis's notify-keyspace-events) are
 * derived from it after the command, so command handlers need not announce their writes.
 * Recorded only between {@link #begin} and {@link #end} on the thread running the command
 * (commands nest: EXEC, scripts' redis.call); a thread outside a command records nothing.
 * Not thread-safe (one per thread).
 */
public final class KeyChanges {
  public enum Kind { NEW, CHANGED, REMOVED, EXPIRED }

  public record Change(int db, byte[] key, Kind kind) {}

  private static final ThreadLocal<KeyChanges> CURRENT = new ThreadLocal<>();

  /** In the order they were committed. */
  public final List<Change> changes = new ArrayList<>(2);
  /** Whether any batch of the command wrote something. */
  public boolean wrote;

  private KeyChanges() {}

  /** Starts recording for a command; returns the enclosing command's record (or null). */
  public static KeyChanges begin() {
    KeyChanges outer = CURRENT.get();
    CURRENT.set(new KeyChanges());
    return outer;
  }

  /** Stops recording; returns this command's record and restores {@code outer}'s. */
  public static KeyChanges end(KeyChanges outer) {
    KeyChanges mine = CURRENT.get();
    CURRENT.set(outer);
    return mine;
  }

  /** Whether the running command is being recorded (notifications are on). */
  static boolean active() {
    return CURRENT.get() != null;
  }

  static void record(int db, byte[] key, Kind kind) {
    KeyChanges c = CURRENT.get();
    if (c != null) {
      c.changes.add(new Change(db, key, kind));
    }
  }

  static void wroteSomething() {
    KeyChanges c = CURRENT.get();
    if (c != null) {
      c.wrote = true;
    }
  }

  /** Whether {@code key} of {@code db} was recorded with {@code kind}. */
  public boolean has(int db, byte[] key, Kind kind) {
    for (Change c : changes) {
      if (c.kind == kind && c.db == db && java.util.Arrays.equals(c.key, key)) {
        return true;
      }
    }
    return false;
  }
}
