package io.cassette.cql;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;

/**
 * The v5 result metadata id: a digest of the result columns (keyspace, table, name, type of
 * each), as Cassandra computes it with MD5. The language puts it in {@link Result.Prepared};
 * the transport recomputes it from the columns of each EXECUTE result and, when it differs
 * from the id the client sent, answers with METADATA_CHANGED and the new id, so drivers
 * refresh their cached metadata. Both sides must therefore use this one function.
 */
public final class ResultMetadataId {
  private ResultMetadataId() {}

  public static byte[] compute(List<ColumnSpec> columns) {
    MessageDigest md5;
    try {
      md5 = MessageDigest.getInstance("MD5");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("MD5 is required of every Java platform", e);
    }
    for (ColumnSpec c : columns) {
      update(md5, c.keyspace());
      update(md5, c.table());
      update(md5, c.name());
      update(md5, c.type().toString());
    }
    return md5.digest();
  }

  private static void update(MessageDigest md5, String s) {
    byte[] b = (s == null ? "" : s).getBytes(StandardCharsets.UTF_8);
    md5.update((byte) (b.length >>> 8));
    md5.update((byte) b.length);
    md5.update(b);
  }
}
