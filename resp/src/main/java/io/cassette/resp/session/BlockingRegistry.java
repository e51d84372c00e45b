package io.cassette.resp.session;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Clients blocked in BLPOP/BRPOP/BLMOVE, by the keys they wait on, served first come first
 * served as Redis does. A push to a waited key marks it ready; the command thread then
 * retries the waiters' commands. Command thread only.
 */
public final class BlockingRegistry {
  private final Map<Session.KeyRef, LinkedHashSet<Session>> waiters = new HashMap<>();
  private final LinkedHashSet<Session.KeyRef> ready = new LinkedHashSet<>();

  public void block(Session s, Session.Blocked blocked) {
    s.blocked = blocked;
    for (Session.KeyRef k : blocked.keys) {
      waiters.computeIfAbsent(k, x -> new LinkedHashSet<>()).add(s);
    }
  }

  public void unblock(Session s) {
    Session.Blocked b = s.blocked;
    if (b == null) {
      return;
    }
    s.blocked = null;
    if (b.timeout != null) {
      b.timeout.cancel(false);
    }
    for (Session.KeyRef k : b.keys) {
      Set<Session> set = waiters.get(k);
      if (set != null) {
        set.remove(s);
        if (set.isEmpty()) {
          waiters.remove(k);
        }
      }
    }
  }

  public void signal(int db, byte[] key) {
    if (waiters.isEmpty()) {
      return;
    }
    Session.KeyRef ref = new Session.KeyRef(db, ByteBuffer.wrap(key));
    if (waiters.containsKey(ref)) {
      ready.add(ref);
    }
  }

  /**
   * Marks {@code key} ready if a client waits on it in {@code command} (lower case): XREADGROUP
   * must answer when its stream is deleted, replaced or renamed over, which no push signals.
   */
  public void signalWaitersIn(int db, byte[] key, String command) {
    if (waiters.isEmpty()) {
      return;
    }
    Session.KeyRef ref = new Session.KeyRef(db, ByteBuffer.wrap(key));
    Set<Session> set = waiters.get(ref);
    if (set != null && waitsIn(set, command)) {
      ready.add(ref);
    }
  }

  /** Like {@link #signalWaitersIn(int, byte[], String)} for every key of {@code db} (-1: all): FLUSHDB/FLUSHALL. */
  public void signalWaitersIn(int db, String command) {
    for (Map.Entry<Session.KeyRef, LinkedHashSet<Session>> e : waiters.entrySet()) {
      if ((db < 0 || e.getKey().db() == db) && waitsIn(e.getValue(), command)) {
        ready.add(e.getKey());
      }
    }
  }

  /**
   * Marks every key waited on in {@code db} ready (SWAPDB: the data under them changed); a
   * waiter whose key still has nothing for it keeps waiting.
   */
  public void signalWaitersIn(int db) {
    for (Session.KeyRef k : waiters.keySet()) {
      if (k.db() == db) {
        ready.add(k);
      }
    }
  }

  private static boolean waitsIn(Set<Session> sessions, String command) {
    for (Session s : sessions) {
      Session.Blocked b = s.blocked;
      if (b != null && b.args.length > 0
          && new String(b.args[0], java.nio.charset.StandardCharsets.ISO_8859_1).equalsIgnoreCase(command)) {
        return true;
      }
    }
    return false;
  }

  public boolean hasReady() {
    return !ready.isEmpty();
  }

  /** The ready keys, cleared. */
  public List<Session.KeyRef> takeReady() {
    List<Session.KeyRef> out = new ArrayList<>(ready);
    ready.clear();
    return out;
  }

  /** A snapshot of the sessions waiting on {@code key}, oldest first. */
  public List<Session> waitersOf(Session.KeyRef key) {
    Set<Session> set = waiters.get(key);
    return set == null ? List.of() : new ArrayList<>(set);
  }

  public int blockedClients() {
    Set<Session> all = new java.util.HashSet<>();
    for (Set<Session> s : waiters.values()) {
      all.addAll(s);
    }
    return all.size();
  }
}
