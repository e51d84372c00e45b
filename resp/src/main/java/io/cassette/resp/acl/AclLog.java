package io.cassette.resp.acl;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;

/**
 * ACL LOG: the latest denied commands, keys, channels and failed AUTHs, newest first, as
 * Redis 7.0 keeps them: an entry like one made less than {@link #GROUPING_MILLIS} ago (same
 * reason, context, object and user) is counted into it instead of added; at most
 * {@code acllog-max-len} (128) entries. Entries also carry Redis 7.2's entry-id and
 * timestamps, which current clients (Jedis 5) require. Command thread only.
 */
public final class AclLog {
  /** Redis's ACL_LOG_GROUPING_MAX_TIME_DELTA. */
  static final long GROUPING_MILLIS = 60_000;
  public static final int DEFAULT_MAX_LEN = 128;

  /** One entry; {@code reason} is auth, command, key or channel. */
  public static final class Entry {
    public long count = 1;
    public final String reason;
    public final String context;
    public final String object;
    public final String username;
    public long createdMillis;
    public String clientInfo;
    /** Redis 7.2's entry-id and timestamp-created (Jedis 5 reads them). */
    public final long id;
    public final long firstMillis;

    Entry(long id, String reason, String context, String object, String username, long now,
          String clientInfo) {
      this.id = id;
      this.firstMillis = now;
      this.reason = reason;
      this.context = context;
      this.object = object;
      this.username = username;
      this.createdMillis = now;
      this.clientInfo = clientInfo;
    }
  }

  private final Deque<Entry> entries = new ArrayDeque<>();
  private int maxLen = DEFAULT_MAX_LEN;
  private long nextId;

  public void add(String reason, String context, String object, String username, String clientInfo) {
    long now = System.currentTimeMillis();
    for (Iterator<Entry> it = entries.iterator(); it.hasNext(); ) {
      Entry e = it.next();
      if (e.reason.equals(reason) && e.context.equals(context) && e.object.equals(object)
          && e.username.equals(username) && now - e.createdMillis < GROUPING_MILLIS) {
        it.remove();
        e.count++;
        e.createdMillis = now;
        e.clientInfo = clientInfo;
        entries.addFirst(e);
        return;
      }
    }
    entries.addFirst(new Entry(nextId++, reason, context, object, username, now, clientInfo));
    while (entries.size() > maxLen) {
      entries.removeLast();
    }
  }

  /** The newest {@code count} entries, newest first. */
  public List<Entry> latest(long count) {
    List<Entry> out = new ArrayList<>();
    for (Entry e : entries) {
      if (out.size() >= count) {
        break;
      }
      out.add(e);
    }
    return out;
  }

  public void reset() {
    entries.clear();
  }

  public void maxLen(int len) {
    maxLen = len;
    while (entries.size() > maxLen) {
      entries.removeLast();
    }
  }
}
