package io.cassette.resp.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The derived limits on the heaps the README promises. proto-max-bulk-len was heap/8: on a
 * 64 MiB node (bench/hostile, issue 13) one SET of 8 MiB after a few smaller ones ended the
 * node with "OutOfMemoryError: Java heap space"; heap/32 survives every size up to it.
 */
class RespLimitsTest {
  @Test
  void aSixtyFourMegabyteHeapGetsTwoMegabyteArguments() {
    RespLimits l = RespLimits.forHeap(64L << 20);
    assertThat(l.maxBulkLength()).isEqualTo(2L << 20);
    assertThat(l.maxMultibulkLength()).isEqualTo(524288);
  }

  @Test
  void smallHeapsKeepOneMegabyteAndLargeOnesRedisDefault() {
    assertThat(RespLimits.forHeap(16L << 20).maxBulkLength()).isEqualTo(1L << 20);
    assertThat(RespLimits.forHeap(32L << 30).maxBulkLength()).isEqualTo(RespLimits.REDIS_MAX_BULK);
  }
}
