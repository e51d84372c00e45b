package io.cassette.coordinator.ring.repair;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cassette.storage.Cell;
import io.cassette.storage.DeletionTime;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.Row;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class StreamBatchTest {
  static List<PartitionUpdate> partitions() {
    return List.of(
        PartitionUpdate.builder("ks", "t", "a".getBytes(StandardCharsets.UTF_8))
            .row(Row.of(new byte[0], List.of(Cell.live("v", "1".getBytes(StandardCharsets.UTF_8), 10)))).build(),
        PartitionUpdate.builder("ks", "t", "b".getBytes(StandardCharsets.UTF_8))
            .deletePartition(new DeletionTime(20, 1_700_000_000)).build());
  }

  @Test
  void aBatchDecodesToWhatWasSentWithTimestampsAndTombstones() {
    List<PartitionUpdate> back = StreamBatch.decode(StreamBatch.encode(3, partitions()));
    assertThat(back).hasSize(2);
    assertThat(back.get(0).rows().get(0).cell("v").timestamp()).isEqualTo(10);
    assertThat(back.get(1).partitionDeletion()).isEqualTo(new DeletionTime(20, 1_700_000_000));
    assertThat(StreamBatch.sequence(StreamBatch.encode(3, partitions()))).isEqualTo(3);
  }

  @Test
  void everyDamagedByteIsRefusedBeforeAnythingIsDecoded() {
    byte[] good = StreamBatch.encode(1, partitions());
    for (int i = 0; i < good.length; i++) {
      if (i >= 1 && i < 5) {
        continue; // the sequence number only names the batch in messages
      }
      byte[] bad = good.clone();
      bad[i] ^= 0x10;
      assertThatThrownBy(() -> StreamBatch.decode(bad)).as("byte %d", i)
          .isInstanceOf(StreamBatch.CorruptBatchException.class);
    }
    assertThatThrownBy(() -> StreamBatch.decode(Arrays.copyOf(good, good.length - 1)))
        .hasMessageContaining("truncated");
    assertThatThrownBy(() -> StreamBatch.decode(Arrays.copyOf(good, good.length + 1)))
        .hasMessageContaining("extended");
  }
}
