package io.cassette.storage;

import java.util.Arrays;

/**
 * A partition key with its Murmur3 token (identical to Cassandra's Murmur3Partitioner).
 * Partitions are ordered by token, then by unsigned key bytes.
 */
public record DecoratedKey(long token, byte[] key) implements Comparable<DecoratedKey> {

  public static DecoratedKey of(byte[] key) {
    return new DecoratedKey(Murmur3Token.of(key), key);
  }

  @Override
  public int compareTo(DecoratedKey o) {
    int c = Long.compare(token, o.token);
    return c != 0 ? c : Bytes.compare(key, o.key);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DecoratedKey k && token == k.token && Arrays.equals(key, k.key);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(token);
  }

  @Override
  public String toString() {
    return "DecoratedKey[" + token + ", " + Bytes.hex(key) + "]";
  }
}
