package io.cassette.resp.stream;

import io.cassette.resp.command.Errors;
import io.cassette.resp.command.RedisException;
import io.cassette.resp.keyspace.Batch;
import io.cassette.resp.keyspace.Database;
import io.cassette.resp.keyspace.KeyMeta;
import io.cassette.resp.keyspace.KeyType;
import io.cassette.storage.Row;
import io.cassette.storage.Slice;
import java.util.ArrayList;
import java.util.List;

/**
 * One stream key opened for a command: its metadata (length = size), its {@link StreamState},
 * and reads and writes of entries and groups in the engine. Changes are written by {@link
 * #save}; entries and groups go straight into the batch. Command thread only.
 */
final class Stream {
  /** One entry read from storage. */
  record Entry(StreamId id, long node, List<byte[]> fields) {}

  /** Rows read per storage call while walking entries. */
  private static final int PAGE = 512;

  final Database db;
  final byte[] key;
  final KeyMeta meta;
  /** The metadata as stored (null for a new stream), for Database.store. */
  private final KeyMeta stored;
  final StreamState state;

  private Stream(Database db, byte[] key, KeyMeta meta, KeyMeta stored, StreamState state) {
    this.db = db;
    this.key = key;
    this.meta = meta;
    this.stored = stored;
    this.state = state;
  }

  /** The stream at {@code key}, or null; WRONGTYPE for another type. */
  static Stream open(Database db, byte[] key) {
    KeyMeta m = db.meta(key);
    if (m == null) {
      return null;
    }
    if (m.type != KeyType.STREAM) {
      throw new RedisException(Errors.WRONGTYPE);
    }
    byte[] v = db.subValue(m, StreamLayout.STATE);
    return new Stream(db, key, m.copy(), m, v == null ? new StreamState() : StreamState.decode(v));
  }

  /** The stream whose metadata is {@code m} (read-only use: no key to store it under). */
  static Stream of(Database db, KeyMeta m) {
    byte[] v = db.subValue(m, StreamLayout.STATE);
    return new Stream(db, null, m.copy(), m, v == null ? new StreamState() : StreamState.decode(v));
  }

  /** Like {@link #open} but another type reads as missing (a blocked client's retry). */
  static Stream openIfStream(Database db, byte[] key) {
    KeyMeta m = db.meta(key);
    return m == null || m.type != KeyType.STREAM ? null : open(db, key);
  }

  /** A new, empty stream (not stored until {@link #save}). */
  static Stream create(Database db, byte[] key) {
    return new Stream(db, key, db.newCollection(KeyType.STREAM), null, new StreamState());
  }

  long length() {
    return meta.size;
  }

  /** Writes the state and the metadata row. */
  void save(Batch b) {
    b.putSub(meta, StreamLayout.STATE, state.encode());
    db.store(b, key, stored, meta);
  }

  // ---- entries

  /** Entries with {@code from <= id <= to}, ascending (or descending), at most {@code limit} (0: all). */
  List<Entry> range(StreamId from, StreamId to, boolean reverse, long limit) {
    List<Entry> out = new ArrayList<>();
    if (from.compareTo(to) > 0 || meta.size == 0) {
      return out;
    }
    byte[] lo = StreamLayout.entry(from);
    byte[] hi = StreamLayout.entry(to);
    while (true) {
      int want = (int) Math.min(PAGE, limit == 0 ? PAGE : limit - out.size());
      List<Row> rows = db.subRows(meta, new Slice(lo, true, hi, true), reverse, want);
      for (Row r : rows) {
        byte[] v = Database.valueOf(r);
        out.add(new Entry(StreamLayout.idOf(r.clustering()), StreamLayout.nodeOf(v),
            StreamLayout.fieldsOf(v)));
      }
      if (rows.size() < want || (limit != 0 && out.size() >= limit)) {
        return out;
      }
      StreamId last = out.get(out.size() - 1).id();
      StreamId step = reverse ? last.previous() : last.next();
      if (step == null) {
        return out;
      }
      if (reverse) {
        hi = StreamLayout.entry(step);
      } else {
        lo = StreamLayout.entry(step);
      }
    }
  }

  Entry entry(StreamId id) {
    List<Entry> one = range(id, id, false, 1);
    return one.isEmpty() ? null : one.get(0);
  }

  /** The last live entry's ID (streamLastValidID), or 0-0 when empty. */
  StreamId lastValidId() {
    if (meta.size == 0) {
      return StreamId.MIN;
    }
    List<Entry> e = range(StreamId.MIN, StreamId.MAX, true, 1);
    return e.isEmpty() ? StreamId.MIN : e.get(0).id();
  }

  /**
   * Appends an entry (streamAppendItem): {@code id} given (with {@code seqGiven}) or auto.
   * Returns null when the ID is not greater than the last one.
   */
  StreamId append(Batch b, StreamId id, boolean seqGiven, byte[][] args, int from, long nowMs,
                  long nodeMaxEntries, long nodeMaxBytes) {
    StreamId last = state.last;
    StreamId use;
    if (id != null) {
      if (seqGiven) {
        use = id;
      } else if (last.ms() == id.ms()) {
        if (last.seq() == -1L) {
          return null;
        }
        use = new StreamId(id.ms(), last.seq() + 1);
      } else {
        use = id;
      }
    } else if (Long.compareUnsigned(nowMs, last.ms()) > 0) {
      use = new StreamId(nowMs, 0);
    } else {
      use = last.next();
      if (use == null) {
        return null;
      }
    }
    if (use.compareTo(last) <= 0) {
      return null;
    }
    long bytes = StreamLayout.listpackBytes(args, from);
    if (state.tailNodeLive == 0
        || (nodeMaxBytes > 0 && state.tailNodeBytes + bytes >= nodeMaxBytes)
        || (nodeMaxEntries > 0 && state.tailNodeEntries >= nodeMaxEntries)) {
      state.tailNode++;
      state.tailNodeEntries = 0;
      state.tailNodeLive = 0;
      state.tailNodeBytes = 16 + bytes; // the master entry repeats the first entry's fields
    }
    state.tailNodeEntries++;
    state.tailNodeLive++;
    state.tailNodeBytes += bytes;
    b.putSub(meta, StreamLayout.entry(use), StreamLayout.encodeEntry(state.tailNode, args, from));
    if (meta.size == 0) {
      state.first = use;
    }
    meta.size++;
    state.entriesAdded++;
    state.last = use;
    return use;
  }

  /** Deletes entry {@code id} (XDEL); false if there is none. */
  boolean delete(Batch b, StreamId id) {
    Entry e = entry(id);
    if (e == null) {
      return false;
    }
    b.deleteSub(meta, StreamLayout.entry(id));
    meta.size--;
    if (e.node() == state.tailNode && state.tailNodeLive > 0) {
      state.tailNodeLive--;
    }
    return true;
  }

  /** Re-reads the first live entry's ID after deletions (0-0 when empty). */
  void refreshFirst(StreamId deletedUpTo) {
    if (meta.size == 0) {
      state.first = StreamId.MIN;
      return;
    }
    StreamId from = deletedUpTo == null ? StreamId.MIN : deletedUpTo.next();
    List<Entry> e = range(from == null ? StreamId.MAX : from, StreamId.MAX, false, 1);
    state.first = e.isEmpty() ? StreamId.MIN : e.get(0).id();
  }

  /** How to trim: by length or by minimum ID, exact or approximate (whole nodes), with a limit. */
  record Trim(boolean byLength, long maxLen, StreamId minId, boolean approx, long limit) {}

  /**
   * Redis's streamTrim: walks nodes from the oldest; a node is removed whole while the rest
   * still satisfies the bound (or all of it is below MINID); with "~" it stops at the first
   * node that cannot go whole, otherwise it deletes that node's entries one by one. A LIMIT
   * stops before a node that would pass it. Returns the entries deleted.
   */
  long trim(Batch b, Trim t) {
    long deleted = 0;
    StreamId cursor = StreamId.MIN;
    StreamId lastDeleted = null;
    boolean removedBefore = false;
    while (true) {
      if (t.byLength() && meta.size <= t.maxLen()) {
        break;
      }
      // By length, more than the excess + 1 entries never need reading: a node that large
      // cannot go whole, and exact trimming deletes only the excess from it.
      long excess = meta.size - t.maxLen();
      boolean[] whole = {true};
      List<Entry> node = firstNode(cursor, t.byLength() ? excess + 1 : Long.MAX_VALUE, whole);
      if (node.isEmpty()) {
        break;
      }
      long entries = node.size();
      if (whole[0] && t.limit() > 0 && deleted + entries > t.limit()) {
        break;
      }
      StreamId nodeFirst = node.get(0).id();
      StreamId nodeLast = node.get(node.size() - 1).id();
      boolean removeNode = whole[0] && (t.byLength() ? meta.size - entries >= t.maxLen()
          : nodeLast.compareTo(t.minId()) < 0);
      if (removeNode) {
        b.deleteSubRange(meta, new Slice(StreamLayout.entry(nodeFirst), true,
            StreamLayout.entry(nodeLast), true));
        meta.size -= entries;
        deleted += entries;
        if (node.get(0).node() == state.tailNode) {
          state.tailNodeLive = 0;
        }
        lastDeleted = nodeLast;
        StreamId next = nodeLast.next();
        if (next == null) {
          break;
        }
        cursor = next;
        continue;
      }
      if (t.approx()) {
        break;
      }
      for (Entry e : node) {
        boolean stop = t.byLength() ? meta.size <= t.maxLen() : e.id().compareTo(t.minId()) >= 0;
        if (stop) {
          break;
        }
        b.deleteSub(meta, StreamLayout.entry(e.id()));
        meta.size--;
        deleted++;
        if (e.node() == state.tailNode && state.tailNodeLive > 0) {
          state.tailNodeLive--;
        }
        lastDeleted = e.id();
      }
      break;
    }
    if (meta.size == 0) {
      state.first = StreamId.MIN;
    } else if (deleted > 0) {
      refreshFirst(lastDeleted);
    }
    return deleted;
  }

  /**
   * The entries of the node holding the first entry at or after {@code from}, at most
   * {@code max}; {@code whole[0]} is set false when the node has more than that.
   */
  private List<Entry> firstNode(StreamId from, long max, boolean[] whole) {
    List<Entry> out = new ArrayList<>();
    StreamId cursor = from;
    Long node = null;
    while (true) {
      long room = max - out.size(); // one more than room tells "larger than max"
      int want = (int) (room >= PAGE ? PAGE : room + 1);
      List<Entry> page = range(cursor, StreamId.MAX, false, want);
      for (Entry e : page) {
        if (node == null) {
          node = e.node();
        } else if (e.node() != node) {
          return out;
        }
        if (out.size() == max) {
          whole[0] = false;
          return out;
        }
        out.add(e);
      }
      if (page.size() < want) {
        return out;
      }
      cursor = page.get(page.size() - 1).id().next();
      if (cursor == null) {
        return out;
      }
    }
  }

  /**
   * Redis's "radix-tree-keys": the nodes from the first live entry's to the tail node, in one
   * read (XINFO STREAM must not read a big stream whole); nodes emptied by XDEL in between are
   * counted, where Redis has removed them.
   */
  long nodes() {
    if (meta.size == 0) {
      return 0;
    }
    List<Entry> first = range(StreamId.MIN, StreamId.MAX, false, 1);
    if (first.isEmpty()) {
      return 0;
    }
    long n = state.tailNode - first.get(0).node() + (state.tailNodeLive > 0 ? 1 : 0);
    return Math.max(1, n);
  }

  // ---- consumer groups

  ConsumerGroup group(byte[] name) {
    byte[] v = db.subValue(meta, StreamLayout.group(name));
    return v == null ? null : ConsumerGroup.decode(v);
  }

  void saveGroup(Batch b, byte[] name, ConsumerGroup g) {
    b.putSub(meta, StreamLayout.group(name), g.encode());
  }

  void deleteGroup(Batch b, byte[] name) {
    b.deleteSub(meta, StreamLayout.group(name));
  }

  /** Every group, by name in byte order. */
  List<java.util.Map.Entry<byte[], ConsumerGroup>> groups() {
    List<java.util.Map.Entry<byte[], ConsumerGroup>> out = new ArrayList<>();
    for (Row r : db.subRowsTagged(meta, StreamLayout.GROUP, false, Integer.MAX_VALUE)) {
      out.add(java.util.Map.entry(io.cassette.resp.keyspace.RedisLayout.untag(r.clustering()),
          ConsumerGroup.decode(Database.valueOf(r))));
    }
    return out;
  }

  int groupCount() {
    return db.subRowsTagged(meta, StreamLayout.GROUP, false, Integer.MAX_VALUE).size();
  }

  // ---- lag (streamReplyWithCGLag and friends)

  /** Whether a deleted entry may lie in {@code start..} (streamRangeHasTombstones). */
  boolean rangeHasTombstones(StreamId start) {
    if (meta.size == 0 || state.maxDeleted.isZero()) {
      return false;
    }
    if (state.first.compareTo(state.maxDeleted) > 0) {
      return false;
    }
    return start.compareTo(state.maxDeleted) <= 0;
  }

  /** streamEstimateDistanceFromFirstEverEntry; -1 when unknown. */
  long estimateDistance(StreamId id) {
    if (state.entriesAdded == 0) {
      return 0;
    }
    if (meta.size == 0 && id.compareTo(state.last) < 1) {
      return state.entriesAdded;
    }
    int cmpLast = id.compareTo(state.last);
    if (cmpLast == 0) {
      return state.entriesAdded;
    } else if (cmpLast > 0) {
      return ConsumerGroup.INVALID_ENTRIES_READ;
    }
    int cmpFirst = id.compareTo(state.first);
    int cmpXdelFirst = state.maxDeleted.compareTo(state.first);
    if (state.maxDeleted.isZero() || cmpXdelFirst < 0) {
      if (cmpFirst < 0) {
        return state.entriesAdded - meta.size;
      } else if (cmpFirst == 0) {
        return state.entriesAdded - meta.size + 1;
      }
    }
    return ConsumerGroup.INVALID_ENTRIES_READ;
  }

  /** The group's lag, or null when it cannot be known. */
  Long lag(ConsumerGroup g) {
    if (state.entriesAdded == 0) {
      return 0L;
    }
    if (g.entriesRead != ConsumerGroup.INVALID_ENTRIES_READ && !rangeHasTombstones(g.lastId)) {
      return state.entriesAdded - g.entriesRead;
    }
    long read = estimateDistance(g.lastId);
    return read == ConsumerGroup.INVALID_ENTRIES_READ ? null : state.entriesAdded - read;
  }

  /** Moves the group past {@code id} as delivering it does (entries_read bookkeeping). */
  void delivered(ConsumerGroup g, StreamId id) {
    if (g.entriesRead != ConsumerGroup.INVALID_ENTRIES_READ && !rangeHasTombstones(id)) {
      g.entriesRead++;
    } else if (state.entriesAdded != 0) {
      g.entriesRead = estimateDistance(id);
    }
    g.lastId = id;
  }
}
