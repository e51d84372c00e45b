package io.cassette.cql.language.statements;

import io.cassette.cql.CqlException;
import io.cassette.cql.ErrorCode;
import java.nio.ByteBuffer;

/**
 * Where a page ended: the last partition key and the last row's clustering (null when the
 * partition was finished), with the LIMIT and PER PARTITION LIMIT left. Opaque to clients.
 *
 * <pre>
 * [u8 version = 1][i32 key length][key][i32 clustering length, -1 = next partition][clustering]
 * [i32 rows left of LIMIT][i32 rows left in this partition]
 * </pre>
 */
record PagingState(byte[] partitionKey, byte[] clustering, int remaining, int remainingInPartition) {
  private static final byte VERSION = 1;

  ByteBuffer serialize() {
    int cl = clustering == null ? 0 : clustering.length;
    ByteBuffer b = ByteBuffer.allocate(1 + 4 + partitionKey.length + 4 + cl + 8);
    b.put(VERSION).putInt(partitionKey.length).put(partitionKey);
    if (clustering == null) {
      b.putInt(-1);
    } else {
      b.putInt(clustering.length).put(clustering);
    }
    b.putInt(remaining).putInt(remainingInPartition);
    return b.flip();
  }

  static PagingState deserialize(ByteBuffer buf) {
    try {
      ByteBuffer b = buf.duplicate();
      if (b.get() != VERSION) {
        throw new IllegalArgumentException("version");
      }
      byte[] key = new byte[b.getInt()];
      b.get(key);
      int cl = b.getInt();
      byte[] clustering = null;
      if (cl >= 0) {
        clustering = new byte[cl];
        b.get(clustering);
      }
      return new PagingState(key, clustering, b.getInt(), b.getInt());
    } catch (RuntimeException e) {
      throw new CqlException(ErrorCode.PROTOCOL_ERROR, "Invalid value for the paging state");
    }
  }
}
