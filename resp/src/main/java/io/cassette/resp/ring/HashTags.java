package io.cassette.resp.ring;

import io.cassette.resp.keyspace.RedisLayout;
import io.cassette.storage.Murmur3Token;
import java.util.Arrays;

/**
 * Where a Redis key is placed on the ring, as Redis Cluster decides its slot: a key with a
 * hash tag ({@code {user1}:a}: the bytes between the first '{' and the first '}' after it,
 * when not empty) is placed by the tag alone, so {@code {user1}:a} and {@code {user1}:b} run
 * on one node; any other key by itself. The token is Murmur3 (the partitioner's) of the key's
 * metadata partition ({@code 'm' | key}) — for a tagged key, of the tag's — so an untagged
 * key runs on the node that stores its metadata.
 */
public final class HashTags {
  private HashTags() {}

  /** The bytes that decide {@code key}'s placement: its hash tag, or the whole key. */
  public static byte[] placementBytes(byte[] key) {
    int open = -1;
    for (int i = 0; i < key.length; i++) {
      if (key[i] == '{') {
        open = i;
        break;
      }
    }
    if (open < 0) {
      return key;
    }
    for (int i = open + 1; i < key.length; i++) {
      if (key[i] == '}') {
        return i == open + 1 ? key : Arrays.copyOfRange(key, open + 1, i);
      }
    }
    return key;
  }

  /** The ring token that places {@code key} (and its command's execution). */
  public static long token(byte[] key) {
    return Murmur3Token.of(RedisLayout.metaPartition(placementBytes(key)));
  }
}
