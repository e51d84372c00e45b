package io.cassette.storage.index;

import io.cassette.storage.Bytes;
import io.cassette.storage.DecoratedKey;
import java.util.Arrays;

/**
 * The row an index posting points at: its partition and its clustering (empty for the static
 * row, or the only row of a table without clustering columns). Ordered as a table scan returns
 * rows: token, partition key bytes, clustering bytes.
 */
public record PrimaryKey(DecoratedKey partition, byte[] clustering) implements Comparable<PrimaryKey> {
  @Override
  public int compareTo(PrimaryKey o) {
    int c = partition.compareTo(o.partition);
    return c != 0 ? c : Bytes.compare(clustering, o.clustering);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PrimaryKey k && partition.equals(k.partition) && Arrays.equals(clustering, k.clustering);
  }

  @Override
  public int hashCode() {
    return partition.hashCode() * 31 + Arrays.hashCode(clustering);
  }
}
