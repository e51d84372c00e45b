package io.cassette.resp.command;

import io.cassette.resp.keyspace.KeyMeta;
import io.cassette.resp.keyspace.KeyType;

/** Shared lookups of data commands. */
final class Keys {
  private Keys() {}

  /** The live metadata of {@code key}, or null; WRONGTYPE if it holds another type. */
  static KeyMeta typed(CommandContext c, byte[] key, KeyType type) {
    KeyMeta m = c.db().meta(key);
    if (m != null && m.type != type) {
      throw new RedisException(Errors.WRONGTYPE);
    }
    return m;
  }

  /**
   * For a blocking pop: like {@link #typed}, but when the command is a retry of a blocked client
   * a key of another type is passed over (null), as Redis serves only keys of the awaited type:
   * a MULTI that replaced the key with a string does not wake the client with WRONGTYPE.
   */
  static KeyMeta awaited(CommandContext c, byte[] key, KeyType type) {
    if (c.session.blocked == null) {
      return typed(c, key, type);
    }
    KeyMeta m = c.db().meta(key);
    return m != null && m.type != type ? null : m;
  }

  /** Like {@link #typed} and counts a keyspace hit or miss (INFO stats). */
  static KeyMeta read(CommandContext c, byte[] key, KeyType type) {
    KeyMeta m = typed(c, key, type);
    (m == null ? c.server.stats.keyspaceMisses : c.server.stats.keyspaceHits).incrementAndGet();
    return m;
  }

  /** Redis's index normalisation for ranges: negative counts from the end. */
  static long normalize(long index, long size) {
    return index < 0 ? size + index : index;
  }
}
