package io.cassette.coordinator.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cassette.storage.Cell;
import io.cassette.storage.DecoratedKey;
import io.cassette.storage.DeletionTime;
import io.cassette.storage.KeyRange;
import io.cassette.storage.LivenessInfo;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.PartitionView;
import io.cassette.storage.RangeTombstone;
import io.cassette.storage.ReadQuery;
import io.cassette.storage.Row;
import io.cassette.storage.Slice;
import io.cassette.storage.StorageException;
import io.cassette.storage.index.IndexExpression;
import io.cassette.storage.index.IndexQuery;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The ring's payloads survive a round trip and refuse another version. */
class RingCodecTest {
  static final byte[] KEY = {1, 2, 3};

  static Row row(byte[] clustering) {
    return new Row(clustering, new LivenessInfo(10, 60, 1000), DeletionTime.LIVE,
        List.of(Cell.live("a", new byte[] {9}, 10), Cell.tombstone("b", 11, 500),
            Cell.live("m", new byte[] {7}, 12).withPath(new byte[] {4}), Cell.expiring("e", new byte[] {1}, 13, 30, 100)));
  }

  @Test
  void updatesQueriesViewsAndPagesRoundTrip() {
    PartitionUpdate u = new PartitionUpdate("ks", "t", KEY, new DeletionTime(5, 100),
        List.of(new RangeTombstone(new Slice(new byte[] {1}, true, new byte[] {2}, false), new DeletionTime(6, 101))),
        List.of(row(new byte[] {1})));
    List<PartitionUpdate> back = RingCodec.mutation(RingCodec.mutation(List.of(u, u)));
    assertThat(back).hasSize(2);
    assertThat(back.get(0).key()).isEqualTo(KEY);
    assertThat(back.get(0).partitionDeletion()).isEqualTo(u.partitionDeletion());
    assertThat(back.get(0).rangeTombstones().get(0).deletion()).isEqualTo(new DeletionTime(6, 101));
    assertThat(back.get(0).rows().get(0).cells()).isEqualTo(u.rows().get(0).cells());

    ReadQuery q = new ReadQuery(List.of(Slice.ALL, Slice.prefix(new byte[] {3})), true, 7, 1234);
    RingCodec.RangeRequest rr = RingCodec.range(RingCodec.range(new RingCodec.RangeRequest("ks", "t",
        new KeyRange(new DecoratedKey(-5, KEY), 99), q, 16, 1 << 20)));
    assertThat(rr.range().after()).isEqualTo(new DecoratedKey(-5, KEY));
    assertThat(rr.range().endToken()).isEqualTo(99);
    assertThat(rr.query().slices()).hasSize(2);
    assertThat(rr.query().reversed()).isTrue();
    assertThat(rr.query().rowLimit()).isEqualTo(7);
    assertThat(RingCodec.range(RingCodec.range(new RingCodec.RangeRequest("ks", "t", KeyRange.tokens(3, 4), q, 1, 1)))
        .range()).isEqualTo(KeyRange.tokens(3, 4));

    PartitionView v = new PartitionView(DecoratedKey.of(KEY), row(new byte[0]), List.of(row(new byte[] {1})));
    PartitionView vb = RingCodec.view(RingCodec.view(v));
    assertThat(vb.key()).isEqualTo(v.key());
    assertThat(vb.staticRow().cells()).isEqualTo(v.staticRow().cells());
    assertThat(vb.rows().get(0).liveness()).isEqualTo(v.rows().get(0).liveness());
    assertThat(RingCodec.digest(vb)).isEqualTo(RingCodec.digest(v));

    RingCodec.PageWriter w = new RingCodec.PageWriter();
    w.add(v);
    w.add(v);
    RingCodec.Page p = RingCodec.page(w.finish(false));
    assertThat(p.partitions()).hasSize(2);
    assertThat(p.exhausted()).isFalse();
  }

  @Test
  void indexQueriesRideOnRangeRequests() {
    ReadQuery q = ReadQuery.all(1234);
    IndexQuery terms = IndexQuery.terms(List.of(IndexExpression.eq("n_idx", new byte[] {1, 2}),
        new IndexExpression("t_idx", null, false, new byte[] {9}, true),
        new IndexExpression("ts_idx", new byte[] {3}, false, null, false)));
    RingCodec.RangeRequest rr = RingCodec.range(RingCodec.range(new RingCodec.RangeRequest("ks", "t", KeyRange.ALL, q,
        7, 9, true, terms)));
    assertThat(rr.unfiltered()).isTrue();
    assertThat(rr.maxPartitions()).isEqualTo(7);
    assertThat(rr.index().isNearest()).isFalse();
    assertThat(rr.index().expressions()).hasSize(3);
    for (int i = 0; i < 3; i++) {
      IndexExpression want = terms.expressions().get(i);
      IndexExpression got = rr.index().expressions().get(i);
      assertThat(got.index()).isEqualTo(want.index());
      assertThat(got.lower()).isEqualTo(want.lower());
      assertThat(got.upper()).isEqualTo(want.upper());
      assertThat(got.lowerInclusive()).isEqualTo(want.lowerInclusive());
      assertThat(got.upperInclusive()).isEqualTo(want.upperInclusive());
    }
    RingCodec.RangeRequest ann = RingCodec.range(RingCodec.range(new RingCodec.RangeRequest("ks", "t", KeyRange.ALL, q,
        1, 1, false, IndexQuery.nearest("v_idx", new float[] {0.5f, -1f, 3.25f}, 40))));
    assertThat(ann.unfiltered()).isFalse();
    assertThat(ann.index().annIndex()).isEqualTo("v_idx");
    assertThat(ann.index().vector()).containsExactly(0.5f, -1f, 3.25f);
    assertThat(ann.index().limit()).isEqualTo(40);
    assertThat(RingCodec.range(RingCodec.range(new RingCodec.RangeRequest("ks", "t", KeyRange.ALL, q, 1, 1))).index())
        .isNull();
  }

  @Test
  void unfilteredReadsAnswersAndPagesRoundTrip() {
    ReadQuery q = ReadQuery.all(1234);
    RingCodec.ReadRequest live = RingCodec.read(RingCodec.read(new RingCodec.ReadRequest("ks", "t", KEY, q)));
    assertThat(live.digest() || live.unfiltered()).isFalse();
    RingCodec.ReadRequest digest = RingCodec.read(RingCodec.read(new RingCodec.ReadRequest("ks", "t", KEY, q, true, true)));
    assertThat(digest.digest() && digest.unfiltered()).isTrue();
    RingCodec.ReadRequest data = RingCodec.read(RingCodec.read(new RingCodec.ReadRequest("ks", "t", KEY, q, false, true)));
    assertThat(data.digest()).isFalse();
    assertThat(data.unfiltered()).isTrue();
    assertThat(RingCodec.range(RingCodec.range(new RingCodec.RangeRequest("ks", "t", KeyRange.ALL, q, 1, 1, true)))
        .unfiltered()).isTrue();
    assertThat(RingCodec.range(RingCodec.range(new RingCodec.RangeRequest("ks", "t", KeyRange.ALL, q, 1, 1)))
        .unfiltered()).isFalse();

    PartitionUpdate u = new PartitionUpdate("ks", "t", KEY, new DeletionTime(5, 100),
        List.of(new RangeTombstone(new Slice(new byte[] {1}, true, new byte[] {2}, false), new DeletionTime(6, 101))),
        List.of(new Row(new byte[] {3}, LivenessInfo.EMPTY, new DeletionTime(7, 102), List.of()), row(new byte[] {4})));
    PartitionUpdate back = RingCodec.unfiltered(RingCodec.unfiltered(u), "ks", "t");
    assertThat(back.partitionDeletion()).isEqualTo(u.partitionDeletion());
    assertThat(back.rangeTombstones()).hasSize(1);
    assertThat(back.rows().get(0).deletion()).isEqualTo(new DeletionTime(7, 102));
    assertThat(RingCodec.digest(back)).isEqualTo(RingCodec.digest(u));
    RingCodec.PageWriter w = new RingCodec.PageWriter();
    w.add(u);
    RingCodec.UnfilteredPage p = RingCodec.unfilteredPage(w.finish(true), "ks", "t");
    assertThat(p.partitions()).hasSize(1);
    assertThat(p.partitions().get(0).rows()).hasSize(2);
    assertThat(p.exhausted()).isTrue();
  }

  @Test
  void anotherVersionIsRefused() {
    byte[] payload = RingCodec.truncate(new RingCodec.TableRef("ks", "t"));
    payload[0] = 2;
    assertThatThrownBy(() -> RingCodec.truncate(payload)).isInstanceOf(StorageException.class)
        .hasMessageContaining("version 2");
  }
}
