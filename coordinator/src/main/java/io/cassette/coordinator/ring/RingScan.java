package io.cassette.coordinator.ring;

import io.cassette.coordinator.Request;
import io.cassette.storage.DecoratedKey;
import io.cassette.storage.KeyRange;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.PartitionView;
import io.cassette.storage.ReadQuery;
import io.cassette.storage.Table;
import io.cassette.storage.index.IndexQuery;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.TreeMap;

/**
 * A scan across the ring: the requested {@link KeyRange} cut along the ring's primary ranges,
 * walked in token order, so partitions come out in the same order as on one node and the
 * caller pages the same way (resume with {@code KeyRange(lastKey, end)}).
 *
 * <p>Each range is read from the replicas its consistency level needs ({@link Segment#contacts},
 * chosen by the coordinator, this node first when it is one):
 * <ul>
 *   <li>one contact: this node's range is read lazily from its engine; a peer's is fetched a
 *       page at a time (RANGE_REQ), the first small (a LIMIT 1 query or a Redis SCAN reads
 *       little), then growing;
 *   <li>several: a page is fetched from each with the same bounds, and the pages are merged up
 *       to the smallest last key among those not exhausted (beyond it a replica's page may not
 *       have everything yet), partition by partition ({@link ReadReconciler}); with
 *       {@code read_repair = 'BLOCKING'} the stale replicas get what they lack before the page is
 *       returned. The next round starts after that key. A merged partition left with fewer live
 *       rows than the query's row limit while a replica's version stopped at it is read again as
 *       a single partition, whose read asks that replica for more (short-read protection).
 * </ul>
 */
final class RingScan implements Table.CloseableIterator<PartitionView> {
  static final int FIRST_PAGE = 16;
  static final int MAX_PAGE = 1024;

  /** A stretch of the ring with one replica set, and the replicas asked for it. */
  record Segment(Range range, List<Endpoint> contacts) {}

  private final RingCoordinator coordinator;
  private final Endpoint self;
  private final String keyspace;
  private final String table;
  private final KeyRange range;
  private final ReadQuery query;
  /** Non-null: a range read with an index query, answered by each replica's indexes. */
  private final IndexQuery index;
  private final Request request;
  private final List<Segment> segments;
  private final boolean repair;

  private int segment = -1;
  private Table.CloseableIterator<PartitionView> localPart;
  private final ArrayDeque<PartitionView> page = new ArrayDeque<>();
  private DecoratedKey remoteAfter;
  private boolean remoteExhausted = true;
  private int pageSize = FIRST_PAGE;
  private boolean closed;

  RingScan(RingCoordinator coordinator, Endpoint self, String keyspace, String table, KeyRange range,
           ReadQuery query, IndexQuery index, Request request, List<Segment> segments, boolean repair) {
    this.coordinator = coordinator;
    this.self = self;
    this.keyspace = keyspace;
    this.table = table;
    this.range = range;
    this.query = query;
    this.index = index;
    this.request = request;
    this.segments = segments;
    this.repair = repair;
  }

  /** The primary ranges of the ring that {@code range} touches, in token order. */
  static List<TokenRing.Owned> touched(TokenRing ring, KeyRange range) {
    long start = range.after() == null ? Long.MIN_VALUE : range.after().token();
    List<TokenRing.Owned> out = new ArrayList<>();
    for (TokenRing.Owned o : ring.rangesInTokenOrder()) {
      if (o.range().end() < start || o.range().start() >= range.endToken()) {
        continue;
      }
      out.add(o);
    }
    return out;
  }

  /** Adds a range to {@code out}, merged with the previous one when it has the same contacts. */
  static void append(List<Segment> out, Range r, List<Endpoint> contacts) {
    int last = out.size() - 1;
    if (last >= 0 && out.get(last).contacts().equals(contacts) && out.get(last).range().end() == r.start()) {
      out.set(last, new Segment(new Range(out.get(last).range().start(), r.end()), contacts));
    } else {
      out.add(new Segment(r, contacts));
    }
  }

  /** The part of the requested range inside {@code r}. */
  private KeyRange within(Range r) {
    DecoratedKey after = range.after();
    if (after == null || after.token() < r.start()) {
      after = r.start() == Long.MIN_VALUE ? null : new DecoratedKey(r.start(), null);
    }
    return new KeyRange(after, Math.min(r.end(), range.endToken()));
  }

  @Override
  public boolean hasNext() {
    while (!closed) {
      if (localPart != null) {
        if (localPart.hasNext()) {
          return true;
        }
        localPart.close();
        localPart = null;
      }
      if (!page.isEmpty()) {
        return true;
      }
      if (!remoteExhausted) {
        fetch();
        continue;
      }
      if (++segment >= segments.size()) {
        return false;
      }
      Segment s = segments.get(segment);
      KeyRange part = within(s.range());
      if (s.contacts().size() == 1 && s.contacts().get(0).equals(self)) {
        localPart = coordinator.localScan(keyspace, table, part, query, index, request);
      } else {
        remoteAfter = part.after();
        remoteExhausted = false;
        pageSize = FIRST_PAGE;
        fetch();
      }
    }
    return false;
  }

  private void fetch() {
    Segment s = segments.get(segment);
    long end = Math.min(s.range().end(), range.endToken());
    KeyRange part = new KeyRange(remoteAfter, end);
    if (s.contacts().size() == 1) {
      RingCodec.Page p = coordinator.fetchPage(s.contacts().get(0), keyspace, table, part, query, index, pageSize,
          request.consistency());
      page.addAll(p.partitions());
      remoteExhausted = p.exhausted() || p.partitions().isEmpty();
      if (!p.partitions().isEmpty()) {
        remoteAfter = p.partitions().get(p.partitions().size() - 1).key();
      }
    } else {
      fetchMerged(s, part);
    }
    pageSize = Math.min(MAX_PAGE, pageSize * 4);
  }

  private void fetchMerged(Segment s, KeyRange part) {
    List<RingCodec.UnfilteredPage> pages = coordinator.fetchPages(s.contacts(), keyspace, table, part, query, index,
        pageSize, request.consistency());
    DecoratedKey cutoff = null;
    for (RingCodec.UnfilteredPage p : pages) {
      if (!p.exhausted() && !p.partitions().isEmpty()) {
        DecoratedKey last = DecoratedKey.of(p.partitions().get(p.partitions().size() - 1).key());
        cutoff = cutoff == null || last.compareTo(cutoff) < 0 ? last : cutoff;
      }
    }
    TreeMap<DecoratedKey, PartitionUpdate[]> byKey = new TreeMap<>();
    for (int i = 0; i < pages.size(); i++) {
      for (PartitionUpdate v : pages.get(i).partitions()) {
        DecoratedKey key = DecoratedKey.of(v.key());
        if (cutoff == null || key.compareTo(cutoff) <= 0) {
          byKey.computeIfAbsent(key, k -> new PartitionUpdate[pages.size()])[i] = v;
        }
      }
    }
    // Unfiltered versions are reconciled (deletions win by timestamp), repaired, then filtered
    // to the live view; a partition left with nothing live is not returned.
    Map<Endpoint, List<PartitionUpdate>> repairs = new LinkedHashMap<>();
    for (Map.Entry<DecoratedKey, PartitionUpdate[]> e : byKey.entrySet()) {
      PartitionUpdate[] versions = e.getValue();
      List<PartitionUpdate> present = new ArrayList<>(versions.length);
      for (PartitionUpdate v : versions) {
        if (v != null) {
          present.add(v);
        }
      }
      PartitionUpdate merged = ReadReconciler.mergeUnfiltered(keyspace, table, present, query);
      if (repair) {
        for (int i = 0; i < versions.length; i++) {
          PartitionUpdate have = versions[i] != null ? versions[i]
              : PartitionUpdate.builder(keyspace, table, e.getKey().key()).build();
          PartitionUpdate u = ReadReconciler.repair(keyspace, table, merged, have);
          if (u != null) {
            repairs.computeIfAbsent(s.contacts().get(i), x -> new ArrayList<>()).add(u);
          }
        }
      }
      PartitionView live = ReadReconciler.live(present, query);
      if (index != null && disagree(present, versions.length)) {
        // A replica's index found rows another's did not (one may hold a newer value that no
        // longer matches, or a deletion): the partition is read whole from the replicas and
        // reconciled, so the newest version is the one the caller re-checks.
        live = coordinator.read(keyspace, table, e.getKey().key(), query, request);
      } else if (shortRead(live, present)) {
        // Short-read protection: a replica stopped at the row limit and others' deletions
        // removed some of its rows; the partition is read again, which asks it for more.
        live = coordinator.read(keyspace, table, e.getKey().key(), query, request);
      }
      if (!live.isEmpty()) {
        page.add(live);
      }
    }
    if (!repairs.isEmpty()) {
      coordinator.repairRange(repairs, request.consistency(), s.contacts().size());
    }
    remoteExhausted = cutoff == null;
    remoteAfter = cutoff;
  }

  /** Whether the replicas' index answers for one partition differ: not all answered, or with other rows. */
  private static boolean disagree(List<PartitionUpdate> present, int asked) {
    if (present.size() < asked) {
      return true;
    }
    List<byte[]> first = clusterings(present.get(0));
    for (int i = 1; i < present.size(); i++) {
      List<byte[]> other = clusterings(present.get(i));
      if (other.size() != first.size()) {
        return true;
      }
      for (int j = 0; j < first.size(); j++) {
        if (!java.util.Arrays.equals(first.get(j), other.get(j))) {
          return true;
        }
      }
    }
    return false;
  }

  private static List<byte[]> clusterings(PartitionUpdate u) {
    List<byte[]> out = new ArrayList<>(u.rows().size());
    u.rows().forEach(r -> out.add(r.clustering()));
    return out;
  }

  /** Whether the merged partition has fewer live rows than the limit while a replica stopped at it. */
  private boolean shortRead(PartitionView live, List<PartitionUpdate> versions) {
    int limit = query.rowLimit();
    if (limit == Integer.MAX_VALUE || versions.size() < 2 || live.rows().size() >= limit) {
      return false;
    }
    for (PartitionUpdate v : versions) {
      if (ReadReconciler.liveRows(v, query) >= limit) {
        return true;
      }
    }
    return false;
  }

  @Override
  public PartitionView next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    return localPart != null ? localPart.next() : page.poll();
  }

  @Override
  public void close() {
    closed = true;
    page.clear();
    if (localPart != null) {
      localPart.close();
      localPart = null;
    }
  }
}
