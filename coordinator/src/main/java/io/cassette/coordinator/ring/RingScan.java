package io.cassette.coordinator.ring;

import io.cassette.coordinator.Request;
import io.cassette.storage.DecoratedKey;
import io.cassette.storage.KeyRange;
import io.cassette.storage.PartitionView;
import io.cassette.storage.ReadQuery;
import io.cassette.storage.Table;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * A scan across the ring: the requested {@link KeyRange} cut along the owners' primary ranges,
 * walked in token order, so partitions come out in the same order as on one node and the
 * caller pages the same way (resume with {@code KeyRange(lastKey, end)}). This node's ranges
 * are read lazily from its engine; a peer's range is fetched a page at a time (RANGE_REQ),
 * the first small (a LIMIT 1 query or a Redis SCAN reads little), then growing.
 */
final class RingScan implements Table.CloseableIterator<PartitionView> {
  static final int FIRST_PAGE = 16;
  static final int MAX_PAGE = 1024;

  private final RingCoordinator coordinator;
  private final Endpoint self;
  private final String keyspace;
  private final String table;
  private final KeyRange range;
  private final ReadQuery query;
  private final Request request;
  private final List<TokenRing.Owned> segments;

  private int segment = -1;
  private Table.CloseableIterator<PartitionView> localPart;
  private final ArrayDeque<PartitionView> page = new ArrayDeque<>();
  private DecoratedKey remoteAfter;
  private boolean remoteExhausted = true;
  private int pageSize = FIRST_PAGE;
  private boolean closed;

  RingScan(RingCoordinator coordinator, Endpoint self, String keyspace, String table, KeyRange range,
           ReadQuery query, Request request, List<TokenRing.Owned> segments) {
    this.coordinator = coordinator;
    this.self = self;
    this.keyspace = keyspace;
    this.table = table;
    this.range = range;
    this.query = query;
    this.request = request;
    this.segments = segments;
  }

  /**
   * The ring's primary ranges that {@code range} touches, in token order, with neighbouring
   * ranges of one owner merged (one stream per owner run, fewer round trips).
   */
  static List<TokenRing.Owned> segments(TokenRing ring, KeyRange range) {
    long start = range.after() == null ? Long.MIN_VALUE : range.after().token();
    List<TokenRing.Owned> out = new ArrayList<>();
    for (TokenRing.Owned o : ring.rangesInTokenOrder()) {
      if (o.range().end() < start || o.range().start() >= range.endToken()) {
        continue;
      }
      int last = out.size() - 1;
      if (last >= 0 && out.get(last).owner().equals(o.owner()) && out.get(last).range().end() == o.range().start()) {
        out.set(last, new TokenRing.Owned(new Range(out.get(last).range().start(), o.range().end()), o.owner()));
      } else {
        out.add(o);
      }
    }
    return out;
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
      TokenRing.Owned o = segments.get(segment);
      KeyRange part = within(o.range());
      if (o.owner().equals(self)) {
        localPart = coordinator.localScan(keyspace, table, part, query, request);
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
    TokenRing.Owned o = segments.get(segment);
    long end = Math.min(o.range().end(), range.endToken());
    RingCodec.Page p = coordinator.fetchPage(o.owner(), keyspace, table, new KeyRange(remoteAfter, end), query,
        pageSize, request.consistency());
    page.addAll(p.partitions());
    remoteExhausted = p.exhausted() || p.partitions().isEmpty();
    if (!p.partitions().isEmpty()) {
      remoteAfter = p.partitions().get(p.partitions().size() - 1).key();
    }
    pageSize = Math.min(MAX_PAGE, pageSize * 4);
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
