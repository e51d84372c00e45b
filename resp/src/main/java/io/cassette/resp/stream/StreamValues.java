package io.cassette.resp.stream;

import io.cassette.resp.keyspace.Batch;
import io.cassette.resp.keyspace.Database;
import io.cassette.resp.keyspace.KeyMeta;
import io.cassette.resp.rdb.RedisValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A stream key as an RDB value and back (DUMP, RESTORE, MIGRATE): all entries, the stream's IDs
 * and counters, every group with its consumers and pending entries. RESTORE writes entries in
 * mutations of {@link #ROWS_PER_BATCH} before the metadata row, as other collections are.
 */
public final class StreamValues {
  private static final int ROWS_PER_BATCH = 2000;
  /** Entries per node given to restored entries (Redis's stream-node-max-entries default). */
  private static final int NODE_ENTRIES = 100;

  private StreamValues() {}

  public static RedisValue.StreamValue read(Database db, KeyMeta meta) {
    Stream s = Stream.of(db, meta);
    List<RedisValue.StreamEntry> entries = new ArrayList<>();
    for (Stream.Entry e : s.range(StreamId.MIN, StreamId.MAX, false, 0)) {
      entries.add(new RedisValue.StreamEntry(e.id().ms(), e.id().seq(), e.fields()));
    }
    List<RedisValue.StreamGroup> groups = new ArrayList<>();
    for (Map.Entry<byte[], ConsumerGroup> ge : s.groups()) {
      ConsumerGroup g = ge.getValue();
      List<RedisValue.StreamNack> pel = new ArrayList<>();
      for (var p : g.pel.entrySet()) {
        pel.add(new RedisValue.StreamNack(p.getKey().ms(), p.getKey().seq(),
            p.getValue().deliveryTime, p.getValue().deliveryCount));
      }
      List<RedisValue.StreamConsumer> consumers = new ArrayList<>();
      for (ConsumerGroup.Consumer c : g.consumers.values()) {
        List<long[]> ids = new ArrayList<>();
        for (StreamId id : c.pel.keySet()) {
          ids.add(new long[] {id.ms(), id.seq()});
        }
        consumers.add(new RedisValue.StreamConsumer(ConsumerGroup.bytes(c.name), c.seenTime, ids));
      }
      groups.add(new RedisValue.StreamGroup(ge.getKey(), g.lastId.ms(), g.lastId.seq(), g.entriesRead,
          pel, consumers));
    }
    StreamState st = s.state;
    return new RedisValue.StreamValue(entries, st.last.ms(), st.last.seq(), st.first.ms(),
        st.first.seq(), st.maxDeleted.ms(), st.maxDeleted.seq(), st.entriesAdded, groups);
  }

  /** Stores {@code v} as {@code key} (replacing {@code existing} or null), expiring at {@code expireAtMs}. */
  public static void write(Database db, byte[] key, KeyMeta existing, RedisValue.StreamValue v,
                           long expireAtMs) {
    Stream s = Stream.create(db, key);
    Batch b = db.batch();
    int pending = 0;
    long node = 0;
    int inNode = 0;
    for (RedisValue.StreamEntry e : v.entries()) {
      if (inNode == NODE_ENTRIES || node == 0) {
        node++;
        inNode = 0;
      }
      inNode++;
      byte[][] fields = e.fields().toArray(new byte[0][]);
      b.putSub(s.meta, StreamLayout.entry(new StreamId(e.ms(), e.seq())),
          StreamLayout.encodeEntry(node, fields, 0));
      if (++pending >= ROWS_PER_BATCH) {
        b.commit();
        pending = 0;
      }
    }
    s.meta.size = v.entries().size();
    StreamState st = s.state;
    st.last = new StreamId(v.lastMs(), v.lastSeq());
    st.first = new StreamId(v.firstMs(), v.firstSeq());
    st.maxDeleted = new StreamId(v.maxDeletedMs(), v.maxDeletedSeq());
    st.entriesAdded = v.entriesAdded();
    st.tailNode = node;
    st.tailNodeEntries = inNode;
    st.tailNodeLive = inNode;
    for (RedisValue.StreamGroup rg : v.groups()) {
      StreamId last = new StreamId(rg.lastMs(), rg.lastSeq());
      // an RDB older than 7.0 has no entries-read: estimated as Redis's loader does
      long read = rg.entriesRead() == Long.MIN_VALUE ? s.estimateDistance(last) : rg.entriesRead();
      ConsumerGroup g = new ConsumerGroup(last, read);
      java.util.Map<StreamId, ConsumerGroup.Nack> nacks = new java.util.HashMap<>();
      for (RedisValue.StreamNack n : rg.pending()) {
        nacks.put(new StreamId(n.ms(), n.seq()), new ConsumerGroup.Nack(null, n.deliveryTime(), n.deliveryCount()));
      }
      for (RedisValue.StreamConsumer rc : rg.consumers()) {
        ConsumerGroup.Consumer c = g.create(ConsumerGroup.name(rc.name()), rc.seenTime());
        if (c == null) {
          continue;
        }
        for (long[] id : rc.pending()) {
          StreamId sid = new StreamId(id[0], id[1]);
          ConsumerGroup.Nack nack = nacks.get(sid);
          if (nack != null) {
            g.assign(sid, nack, c);
          }
        }
      }
      s.saveGroup(b, rg.name(), g);
    }
    s.meta.expireAtMs = expireAtMs;
    b.putSub(s.meta, StreamLayout.STATE, st.encode());
    db.store(b, key, existing, s.meta);
    b.commit();
  }
}
