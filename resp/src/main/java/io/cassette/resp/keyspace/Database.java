package io.cassette.resp.keyspace;

import io.cassette.coordinator.Coordinator;
import io.cassette.storage.KeyRange;
import io.cassette.storage.PartitionView;
import io.cassette.storage.ReadQuery;
import io.cassette.storage.Row;
import io.cassette.storage.Slice;
import io.cassette.storage.Table;
import io.cassette.storage.DecoratedKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * One Redis database (SELECT index) on its storage table: reads and writes keys' metadata
 * and sub-rows as {@link RedisLayout} lays them out, applies lazy expiry, keeps the expiry
 * index and the key count.
 *
 * <p>Not thread-safe: every call comes from the single command thread, which is what makes
 * each Redis command atomic.
 */
public final class Database {
  /** Keys with an expired TTL removed per database and active-expiry cycle, at most. */
  static final int ACTIVE_EXPIRE_BATCH = 64;

  /** The SELECT index this table serves now (SWAPDB changes it: {@link DatabaseMap}). */
  private int index;
  /** The table this object reads and writes ({@code redis.db<slot>}): fixed, as its caches are. */
  private final int slot;
  private final RedisClock clock;
  private final RedisTable table;
  /**
   * Index entries before this time were all processed: the next cycle starts here instead of
   * wading through the tombstones of entries already handled. Entries are never added in
   * the past (an expiry time already passed deletes the key at once), so none is skipped.
   */
  private final long[] expiryLowWater = new long[RedisLayout.EXPIRY_BUCKETS + 1];
  /** Next expiry bucket an active-expiry step starts at (round robin). */
  private int nextBucket;
  /**
   * Whether layout 1's single expiry partition may still hold entries: then it is read by
   * active expiry (as the last bucket) and entries are deleted there too, until it is empty.
   */
  private boolean legacyExpiry;
  /** Number of keys; -1 until first counted (a scan), then maintained on every change. */
  private long keyCount = -1;

  private final MetaCache cache;

  private final SubRowCache subRowCache;

  private final MemberSets memberSets;

  /** Which node runs each key's commands (active expiry hands keys executed elsewhere over). */
  KeyRouter router = KeyRouter.LOCAL;

  Database(int index, int slot, Coordinator coordinator, RedisClock clock, MetaCache cache, SubRowCache subRows,
           MemberSets memberSets, io.cassette.coordinator.Request request, WriteFence.Slot fence) {
    this.cache = cache;
    this.memberSets = memberSets;
    this.subRowCache = subRows;
    this.index = index;
    this.slot = slot;
    this.clock = clock;
    this.table = RedisTable.open(coordinator, slot, request, fence);
    readMarks();
  }

  /**
   * Whether the layout mark was checked and the legacy expiry partition looked at. On a ring
   * the server waits for its peers before the door opens (block_for_peers_timeout_in_secs);
   * a replica of the marks still DOWN, or not knowing the table yet, then does not stop the door: the marks are read again
   * by each active-expiry step until they answer (meanwhile layout 1's partition is expired
   * too, which only costs a read).
   */
  private boolean marksRead;
  /** When active expiry may try the marks again (a replica that times out costs a timeout). */
  private long marksRetryNanos;
  private static final long MARKS_RETRY_NANOS = 5_000_000_000L;

  private void readMarks() {
    marksRetryNanos = System.nanoTime() + MARKS_RETRY_NANOS;
    try {
      checkLayout();
      legacyExpiry = !table.read(RedisLayout.LEGACY_EXPIRY_KEY,
          new ReadQuery(List.of(Slice.ALL), false, 1, nowSeconds())).rows().isEmpty();
      marksRead = true;
    } catch (io.cassette.coordinator.CoordinatorException.Unavailable
             | io.cassette.coordinator.CoordinatorException.Timeout
             | io.cassette.coordinator.CoordinatorException.Failure e) {
      // Failure: seen at a ring's start, the replica of the marks had not applied the schema
      // entry creating the table yet (INCOMPATIBLE_SCHEMA) and the node exited.
      legacyExpiry = true;
    }
  }

  /**
   * Refuses a table written with a newer layout than this code knows (never guess); marks
   * the table with {@link RedisLayout#LAYOUT} otherwise. Layout 1 had no mark and is read
   * as described in docs/format/redis-encoding.md.
   */
  private void checkLayout() {
    byte[] v = firstValue(table.read(RedisLayout.LAYOUT_KEY, ReadQuery.row(RedisLayout.META_CLUSTERING, nowSeconds())));
    int layout = v == null ? 1 : java.nio.ByteBuffer.wrap(v).getInt();
    if (layout > RedisLayout.LAYOUT) {
      throw new IllegalStateException("Redis database " + index + " (table " + RedisLayout.KEYSPACE + "."
          + table.name() + ") was written with Redis layout " + layout + "; this release reads layouts 1 to "
          + RedisLayout.LAYOUT + ". Use the newer release, or a new data directory.");
    }
    if (layout < RedisLayout.LAYOUT) {
      Batch b = batch();
      b.putRow(RedisLayout.LAYOUT_KEY, RedisLayout.META_CLUSTERING,
          java.nio.ByteBuffer.allocate(4).putInt(RedisLayout.LAYOUT).array());
      b.commit();
    }
  }

  /** Removes the expiry-index entry of {@code key} at {@code expireAtMs}. */
  private void deleteExpiryEntry(Batch b, byte[] key, long expireAtMs) {
    byte[] c = RedisLayout.expiryClustering(expireAtMs, key);
    b.deleteRow(RedisLayout.expiryKey(key), c);
    if (legacyExpiry) {
      b.deleteRow(RedisLayout.LEGACY_EXPIRY_KEY, c);
    }
  }

  public int index() {
    return index;
  }

  /** The table slot (see {@link DatabaseMap}). */
  int slot() {
    return slot;
  }

  /** This table now serves SELECT index {@code index} (a SWAPDB was applied). */
  void index(int index) {
    this.index = index;
  }

  /**
   * Whether {@code key} exists and has not expired, without deleting it when expired (SWAPDB
   * and FLUSHDB ask which watched keys they replace: a stale key counts as none, as in Redis).
   */
  public boolean holdsLive(byte[] key) {
    KeyMeta m = rawMeta(key);
    return m != null && !m.expiresAt(clock.nowMillis());
  }

  public RedisClock clock() {
    return clock;
  }

  /** A batch of writes stamped with a fresh timestamp. */
  public Batch batch() {
    long micros = clock.nextMicros();
    return new Batch(table, micros, micros / 1_000_000, subRowCache, memberSets);
  }

  private static long nowSeconds() {
    return System.currentTimeMillis() / 1000;
  }

  /** The live metadata of {@code key}, or null; an expired key is deleted on the way. */
  public KeyMeta meta(byte[] key) {
    KeyMeta m = rawMeta(key);
    if (m != null && m.expiresAt(clock.nowMillis())) {
      Batch b = batch();
      remove(b, key, m, KeyChanges.Kind.EXPIRED);
      b.commit();
      return null;
    }
    return m;
  }

  /** Receives a value's bytes in place (they must not be kept). */
  public interface BytesSink {
    void accept(byte[] bytes, int offset, int length);
  }

  /**
   * GET's fast path: when {@code key}'s metadata is cached and is a string that has not
   * expired, hands its value to {@code sink} where the cache holds it (no copy, no
   * {@link KeyMeta}) and returns true. False otherwise (not cached, another type, expired):
   * the caller takes {@link #meta}'s path, which also deletes an expired key.
   */
  public boolean cachedString(byte[] key, BytesSink sink) {
    byte[] e = cache.entry(slot, key);
    int from = e == null ? -1 : liveStringValue(e, key.length);
    if (from < 0) {
      return false;
    }
    sink.accept(e, from, e.length - from);
    return true;
  }

  /**
   * Where the value starts in cache entry {@code e} of a key {@code keyLength} bytes long, if
   * the entry is a string that has not expired; -1 otherwise (another type, or expired).
   */
  private int liveStringValue(byte[] e, int keyLength) {
    int off = MetaCache.metaOffset(e, keyLength);
    if (e[off] != (byte) KeyType.STRING.code) {
      return -1;
    }
    long expireAtMs = KeyMeta.getLong(e, off + 1);
    if (expireAtMs != 0 && expireAtMs <= clock.nowMillis()) {
      return -1;
    }
    return off + KeyMeta.HEADER;
  }

  /** Receives INCR's new value. */
  public interface LongSink {
    void accept(long value);
  }

  /**
   * INCRBY's fast path: when {@code key}'s metadata is cached, is an unexpired string holding
   * an integer (as {@link io.cassette.resp.command.Args#parseLongOrNull} reads it) and adding
   * {@code by} does not overflow, writes the new value's row straight from the cache entry
   * (no {@link KeyMeta}, boxed long or string on the way), hands the result to {@code sink}
   * and returns true. False, having done nothing, otherwise (not cached, another type,
   * expired, not an integer, an overflow, keyspace notifications on): the caller takes the
   * general path, which gives Redis's errors. The key exists and keeps its expiry, so neither
   * the key count nor the expiry index changes.
   */
  public boolean incrCached(byte[] key, long by, LongSink sink) {
    if (KeyChanges.active() || !router.executesHere(key)) {
      return false;
    }
    byte[] e = cache.entry(slot, key);
    int from = e == null ? -1 : liveStringValue(e, key.length);
    if (from < 0) {
      return false;
    }
    long expireAtMs = KeyMeta.getLong(e, from - KeyMeta.HEADER + 1);
    long current;
    if (e.length - from == 1 && e[from] == '0') {
      current = 0;
    } else {
      current = parseCanonicalLong(e, from, e.length);
      if (current == 0) {
        return false; // not an integer (a canonical non-zero one never parses to 0)
      }
    }
    long result = current + by;
    if (((current ^ result) & (by ^ result)) < 0) {
      return false; // overflow: the general path answers it
    }
    byte[] encoded = KeyMeta.encodeLong(result, expireAtMs);
    Batch b = batch();
    b.putRow(RedisLayout.metaKey(key), RedisLayout.META_CLUSTERING, encoded);
    b.afterCommit(() -> cache.putEncoded(slot, key, encoded));
    b.commit();
    sink.accept(result);
    return true;
  }

  /**
   * The integer in {@code s[from, to)} as Redis's string2ll reads it (no sign but '-', no
   * leading zero, at most 20 bytes, in range), or 0 when it is not one (callers check "0").
   */
  static long parseCanonicalLong(byte[] s, int from, int to) {
    int len = to - from;
    if (len == 0 || len > 20) {
      return 0;
    }
    int i = from;
    boolean negative = s[i] == '-';
    if (negative) {
      i++;
      if (len == 1) {
        return 0;
      }
    }
    if (s[i] < '1' || s[i] > '9') {
      return 0;
    }
    long v = 0; // accumulated negatively to reach Long.MIN_VALUE
    for (; i < to; i++) {
      int d = s[i] - '0';
      if (d < 0 || d > 9 || v < (Long.MIN_VALUE + d) / 10) {
        return 0;
      }
      v = v * 10 - d;
    }
    if (!negative) {
      return v == Long.MIN_VALUE ? 0 : -v;
    }
    return v;
  }

  /** Deletes {@code key} if its TTL has passed (a ring peer's active expiry asked); true if it did. */
  public boolean expireIfDue(byte[] key) {
    KeyMeta m = rawMeta(key);
    if (m == null || !m.expiresAt(clock.nowMillis())) {
      return false;
    }
    Batch b = batch();
    remove(b, key, m, KeyChanges.Kind.EXPIRED);
    b.commit();
    return true;
  }

  /** The stored metadata of {@code key} even when expired, or null. */
  KeyMeta rawMeta(byte[] key) {
    KeyMeta cached = cache.get(slot, key);
    if (cached != null) {
      return cached;
    }
    if (cache.knownUncached(slot, key) == KnownKeys.ABSENT) {
      return null; // deleted or found missing by this thread since: no storage read
    }
    PartitionView view = table.read(RedisLayout.metaKey(key),
        ReadQuery.row(RedisLayout.META_CLUSTERING, nowSeconds()));
    byte[] v = firstValue(view);
    if (v == null) {
      if (router.executesHere(key)) {
        cache.absent(slot, key);
      }
      return null;
    }
    KeyMeta m = KeyMeta.decode(v);
    if (router.executesHere(key)) { // on a ring only the executor's view stays true (active expiry reads others')
      cache.putEncoded(slot, key, v);
    }
    return m;
  }

  private static byte[] firstValue(PartitionView view) {
    Row r = view.rows().isEmpty() ? view.staticRow() : view.rows().get(0);
    if (r == null) {
      return null;
    }
    var cell = r.cell(RedisLayout.COLUMN);
    return cell == null ? null : cell.value();
  }

  /**
   * Writes {@code meta} for {@code key}, replacing {@code old} (null when the key did not
   * exist): keeps the key count and expiry index, and drops the old sub-rows when the key
   * becomes a new incarnation (different version or type).
   */
  public void store(Batch b, byte[] key, KeyMeta old, KeyMeta meta) {
    if (KeyChanges.active()) {
      KeyChanges.Kind kind = old == null ? KeyChanges.Kind.NEW : KeyChanges.Kind.CHANGED;
      b.afterCommit(() -> KeyChanges.record(index, key, kind));
    }
    if (old == null) {
      if (keyCount >= 0) {
        keyCount++;
      }
    } else {
      if (old.type != KeyType.STRING && (!meta.sameIncarnation(old))) {
        dropElements(b, old);
      }
      if (old.expireAtMs != 0 && old.expireAtMs != meta.expireAtMs) {
        deleteExpiryEntry(b, key, old.expireAtMs);
      }
    }
    if (meta.expireAtMs != 0 && (old == null || old.expireAtMs != meta.expireAtMs)) {
      b.putRow(RedisLayout.expiryKey(key), RedisLayout.expiryClustering(meta.expireAtMs, key),
          new byte[0]);
    }
    byte[] encoded = meta.encode(); // never changed after: the row and the cache share it
    b.putRow(RedisLayout.metaKey(key), RedisLayout.META_CLUSTERING, encoded);
    if (router.executesHere(key)) {
      b.afterCommit(() -> cache.putEncoded(slot, key, encoded));
    }
  }

  /**
   * SET without options, written blind when this thread knows {@code key} holds a string or
   * nothing ({@link KnownKeys}) though its metadata is no longer cached: no storage read. The
   * old value is overwritten by the new row (its one-row partition); no collection's sub-rows
   * can be left behind; an old expiry-index entry is left to active expiry, which drops entries
   * whose key no longer expires then. Returns false, having done nothing, when the key must be
   * read first: its metadata cached (the exact path is as cheap), unknown here, a collection,
   * an expiry already passed, keyspace notifications on (they tell new keys from changed ones),
   * or a ring key another node executes.
   */
  public boolean setBlind(byte[] key, byte[] value, long expireAtMs) {
    if (KeyChanges.active() || (expireAtMs != 0 && expireAtMs <= clock.nowMillis())
        || !router.executesHere(key)) {
      return false;
    }
    if (cache.entry(slot, key) != null) {
      return false; // cached: the exact path is as cheap
    }
    int known = cache.knownUncached(slot, key);
    if (known == KnownKeys.UNKNOWN) {
      return false;
    }
    Batch b = batch();
    if (expireAtMs != 0) {
      b.putRow(RedisLayout.expiryKey(key), RedisLayout.expiryClustering(expireAtMs, key), new byte[0]);
    }
    byte[] encoded = KeyMeta.string(value, expireAtMs).encode();
    b.putRow(RedisLayout.metaKey(key), RedisLayout.META_CLUSTERING, encoded);
    b.afterCommit(() -> cache.putEncoded(slot, key, encoded));
    b.commit();
    if (known == KnownKeys.ABSENT && keyCount >= 0) {
      keyCount++;
    }
    return true;
  }

  /** Deletes {@code key} whose current metadata is {@code meta}: O(1) whatever its size. */
  public void remove(Batch b, byte[] key, KeyMeta meta) {
    remove(b, key, meta, KeyChanges.Kind.REMOVED);
  }

  private void remove(Batch b, byte[] key, KeyMeta meta, KeyChanges.Kind kind) {
    if (KeyChanges.active()) {
      b.afterCommit(() -> KeyChanges.record(index, key, kind));
    }
    b.deletePartition(RedisLayout.metaKey(key));
    b.afterCommit(() -> cache.deleted(slot, key));
    dropElements(b, meta);
    long members = meta.cacheId();
    b.afterCommit(() -> memberSets.forget(members));
    if (meta.expireAtMs != 0) {
      deleteExpiryEntry(b, key, meta.expireAtMs);
    }
    if (keyCount > 0) {
      keyCount--;
    }
  }

  /**
   * Moves {@code key}'s metadata to {@code target} (RENAME): the sub-rows stay where they are,
   * since their partition is named by version, not by key. {@code targetOld} is the target's
   * current metadata or null.
   */
  public void rename(Batch b, byte[] key, KeyMeta meta, byte[] target, KeyMeta targetOld) {
    b.deletePartition(RedisLayout.metaKey(key));
    b.afterCommit(() -> cache.deleted(slot, key));
    if (meta.expireAtMs != 0) {
      deleteExpiryEntry(b, key, meta.expireAtMs);
    }
    if (keyCount > 0) {
      keyCount--;
    }
    store(b, target, targetOld, meta);
  }

  /**
   * Deletes every element of a collection: one partition tombstone, or for a list one per
   * chunk it spans (LIST_CHUNK positions each).
   */
  private static void dropElements(Batch b, KeyMeta meta) {
    if (meta.type == KeyType.LIST) {
      if (meta.tail > meta.head) {
        for (long c = RedisLayout.chunkOf(meta.head); c <= RedisLayout.chunkOf(meta.tail - 1); c++) {
          b.deletePartition(RedisLayout.listChunkKey(meta, c));
        }
      }
    } else if (meta.type != KeyType.STRING) {
      b.deletePartition(RedisLayout.subKey(meta));
    }
  }

  /** The element at {@code position} of list {@code meta}, or null. */
  public byte[] listGet(KeyMeta meta, long position) {
    byte[] c = RedisLayout.listPosition(position);
    PartitionView view = table.read(RedisLayout.listChunkKey(meta,
        RedisLayout.chunkOf(position)), new ReadQuery(List.of(new Slice(c, true, c, true)),
        false, 1, nowSeconds()));
    return view.rows().isEmpty() ? null : valueOf(view.rows().get(0));
  }

  /**
   * Elements of list {@code meta} at positions {@code from..to} (inclusive), ascending or
   * descending, at most {@code limit}; reads only the chunks the range covers.
   */
  public List<Row> listRange(KeyMeta meta, long from, long to, boolean reverse, int limit) {
    List<Row> out = new ArrayList<>();
    if (from > to || limit <= 0) {
      return out;
    }
    long first = RedisLayout.chunkOf(from);
    long last = RedisLayout.chunkOf(to);
    for (long c = reverse ? last : first; reverse ? c >= first : c <= last; c += reverse ? -1 : 1) {
      long lo = Math.max(from, RedisLayout.chunkStart(c));
      long hi = Math.min(to, RedisLayout.chunkEnd(c));
      PartitionView view = table.read(RedisLayout.listChunkKey(meta, c),
          new ReadQuery(List.of(new Slice(RedisLayout.listPosition(lo), true,
              RedisLayout.listPosition(hi), true)), reverse, limit - out.size(), nowSeconds()));
      out.addAll(view.rows());
      if (out.size() >= limit) {
        break;
      }
    }
    return out;
  }

  /** A new, empty collection of {@code type} with a fresh version (not yet stored). */
  public KeyMeta newCollection(KeyType type) {
    KeyMeta m = KeyMeta.collection(type, clock.nextMicros(), clock.nextSalt());
    memberSets.created(m);
    return m;
  }

  /**
   * Whether sub-row {@code clustering} of {@code meta} exists: all HSET, SADD, HDEL, SREM,
   * HEXISTS and SISMEMBER need. Answered from the collection's member set when it is tracked
   * ({@link MemberSets}), without reading storage.
   */
  public boolean subExists(KeyMeta meta, byte[] clustering) {
    MemberTable members = memberSets.complete(meta, clustering);
    if (members != null) {
      return members.contains(clustering);
    }
    return subValue(meta, clustering) != null;
  }

  /** The value of one sub-row, or null. */
  public byte[] subValue(KeyMeta meta, byte[] clustering) {
    byte[] cached = subRowCache.get(meta.cacheId(), clustering);
    if (cached != null) {
      return cached;
    }
    MemberTable members = memberSets.complete(meta, clustering);
    if (members != null) {
      byte[] v = members.value(clustering);
      if (v == null) {
        return null; // not a member: nothing to read
      }
      if (v != MemberTable.PRESENT_VALUE_UNKNOWN) {
        return v;
      }
    } else if (memberSets.shouldLoad(meta, clustering)) {
      loadMembers(meta);
      return subValue(meta, clustering);
    }
    return readSubValue(meta, clustering);
  }

  /** Rows per read while a member set is loaded. */
  static final int MEMBER_LOAD_PAGE = 1024;

  /**
   * Reads every member of {@code meta} (page by page, in clustering order) into a new table
   * for {@link MemberSets}; gives up (tracking nothing) on a member too long to keep.
   */
  private void loadMembers(KeyMeta meta) {
    byte tag = MemberSets.memberTag(meta.type);
    MemberTable t = new MemberTable(tag);
    byte[] end = {(byte) (tag + 1)};
    Slice page = new Slice(new byte[] {tag}, true, end, false);
    while (true) {
      List<Row> rows = subRows(meta, page, false, MEMBER_LOAD_PAGE);
      for (Row r : rows) {
        if (!MemberTable.fits(r.clustering())) {
          memberSets.untrackable(meta.cacheId());
          return;
        }
        t.put(r.clustering(), valueOf(r));
      }
      if (rows.size() < MEMBER_LOAD_PAGE) {
        break;
      }
      page = new Slice(rows.get(rows.size() - 1).clustering(), false, end, false);
    }
    memberSets.install(meta.cacheId(), t);
  }

  private byte[] readSubValue(KeyMeta meta, byte[] clustering) {
    byte[] end = Arrays.copyOf(clustering, clustering.length + 1);
    PartitionView view = table.read(RedisLayout.subKey(meta),
        new ReadQuery(List.of(new Slice(clustering, true, end, false)), false, 1, nowSeconds()));
    if (view.rows().isEmpty()) {
      return null;
    }
    Row r = view.rows().get(0);
    if (!Arrays.equals(r.clustering(), clustering)) {
      return null;
    }
    var cell = r.cell(RedisLayout.COLUMN);
    if (cell == null) {
      return null;
    }
    subRowCache.put(meta.cacheId(), clustering, cell.value());
    return cell.value();
  }

  /** Live sub-rows of {@code meta} in {@code slice}, at most {@code limit}. */
  public List<Row> subRows(KeyMeta meta, Slice slice, boolean reversed, int limit) {
    PartitionView view = table.read(RedisLayout.subKey(meta),
        new ReadQuery(List.of(slice), reversed, limit, nowSeconds()));
    return view.rows();
  }

  /** All sub-rows whose clustering starts with {@code tag}. */
  public List<Row> subRowsTagged(KeyMeta meta, byte tag, boolean reversed, int limit) {
    return subRows(meta, Slice.prefix(new byte[] {tag}), reversed, limit);
  }

  public static byte[] valueOf(Row r) {
    var cell = r.cell(RedisLayout.COLUMN);
    return cell == null ? null : cell.value();
  }

  /**
   * Number of keys, counting once by a scan on first use. On a ring other nodes add and remove
   * keys too, so every call scans (DBSIZE is O(keys) there).
   */
  public long size() {
    if (keyCount < 0 || !table.seesAllWrites()) {
      long[] n = {0};
      scanKeys(KeyRange.ALL, k -> n[0]++);
      keyCount = n[0];
    }
    return keyCount;
  }

  /** Number of keys (unexpired or not) in {@code range} (a ring node's own ranges: DBSIZE's part). */
  public long countKeys(KeyRange range) {
    long[] n = {0};
    scanKeys(range, k -> n[0]++);
    return n[0];
  }

  /**
   * Calls {@code consumer} with every key (unexpired or not) in token order within
   * {@code range}; returns the last partition seen, or null.
   */
  public DecoratedKey scanKeys(KeyRange range, Consumer<byte[]> consumer) {
    return scanKeys(range, Integer.MAX_VALUE, (k, m) -> consumer.accept(k));
  }

  /** A key and its metadata seen by a scan. */
  public interface KeyVisitor {
    void visit(byte[] key, KeyMeta meta);
  }

  /**
   * Visits up to {@code count} keys (then the rest of the same token, so a cursor on the
   * token resumes exactly) in token order; returns the last key's position, or null at the end.
   */
  public DecoratedKey scanKeys(KeyRange range, int count, KeyVisitor visitor) {
    int seen = 0;
    DecoratedKey last = null;
    try (Table.CloseableIterator<PartitionView> it = table.scan(range,
        new ReadQuery(List.of(Slice.ALL), false, 1, nowSeconds()))) {
      while (it.hasNext()) {
        PartitionView p = it.next();
        if (seen >= count && last != null && p.key().token() != last.token()) {
          return last;
        }
        last = p.key();
        if (!RedisLayout.isMetaKey(p.key().key())) {
          continue;
        }
        byte[] v = firstValue(p);
        if (v == null) {
          continue;
        }
        visitor.visit(RedisLayout.userKey(p.key().key()), KeyMeta.decode(v));
        seen++;
      }
    }
    return null;
  }

  /** Removes every key (FLUSHDB). */
  public void flush() {
    cache.clear(slot);
    table.truncate();
    keyCount = 0;
    legacyExpiry = false;
    Arrays.fill(expiryLowWater, 0);
    checkLayout(); // the mark went with the data
  }

  /**
   * One active-expiry step: deletes up to {@link #ACTIVE_EXPIRE_BATCH} keys whose expiry has
   * passed, found through the expiry index. Returns the keys deleted (for WATCH).
   */
  public List<byte[]> expireSome() {
    if (!marksRead && System.nanoTime() - marksRetryNanos >= 0) {
      readMarks();
    }
    long now = clock.nowMillis();
    List<byte[]> removed = new ArrayList<>();
    Batch b = batch();
    int buckets = RedisLayout.EXPIRY_BUCKETS + (legacyExpiry ? 1 : 0);
    int budget = ACTIVE_EXPIRE_BATCH;
    for (int i = 0; i < buckets && budget > 0; i++) {
      int bucket = (nextBucket + i) % buckets;
      budget -= expireBucket(bucket, now, budget, b, removed);
    }
    nextBucket = (nextBucket + 1) % buckets;
    b.commit();
    return removed;
  }

  /**
   * Handles up to {@code limit} due entries of one expiry partition (bucket {@code
   * EXPIRY_BUCKETS} is layout 1's single partition); returns how many it read.
   */
  private int expireBucket(int bucket, long now, int limit, Batch b, List<byte[]> removed) {
    boolean legacy = bucket == RedisLayout.EXPIRY_BUCKETS;
    byte[] partition = legacy ? RedisLayout.LEGACY_EXPIRY_KEY : RedisLayout.expiryBucketKey(bucket);
    if (!table.ownsLocally(partition)) {
      return 0; // on a ring each bucket is expired by the node that owns it, once
    }
    byte[] start = new byte[8];
    KeyMeta.putLong(start, 0, expiryLowWater[bucket]);
    byte[] end = new byte[8];
    KeyMeta.putLong(end, 0, now);
    ReadQuery due = new ReadQuery(List.of(new Slice(start, true, end, true)), false, limit, nowSeconds());
    // Ten times a second on every bucket this node owns: first look at this node's own copy
    // (no messages); only a bucket with due entries here is read at the door's level. An idle
    // ring otherwise sent a QUORUM read per bucket and cycle (RF > 1). An entry this replica
    // missed is expired once it has it (hints, repair), or lazily when its key is read.
    if (!legacy && table.readHere(partition, due).rows().isEmpty()) {
      return 0;
    }
    PartitionView view = table.read(partition, due);
    if (view.rows().isEmpty()) {
      if (legacy && table.read(partition, new ReadQuery(List.of(Slice.ALL), false, 1, nowSeconds()))
          .rows().isEmpty()) {
        legacyExpiry = false; // layout 1's entries are all handled
      }
      return 0;
    }
    for (Row r : view.rows()) {
      byte[] c = r.clustering();
      long at = KeyMeta.getLong(c, 0);
      expiryLowWater[bucket] = Math.max(expiryLowWater[bucket], at);
      byte[] key = Arrays.copyOfRange(c, 8, c.length);
      KeyMeta m = rawMeta(key);
      if (m != null && m.expireAtMs == at && m.expiresAt(now)) {
        if (!router.expiresHere(key)) {
          router.expireElsewhere(index, key); // deleted there (or later, under its lease), with its index entry
          continue;
        }
        remove(b, key, m);
        removed.add(key);
      } else {
        b.deleteRow(partition, c);
      }
    }
    return view.rows().size();
  }
}
