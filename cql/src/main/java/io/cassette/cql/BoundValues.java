package io.cassette.cql;

import java.nio.ByteBuffer;
import java.util.AbstractList;
import java.util.RandomAccess;

/**
 * The bound values of a QUERY or EXECUTE as the decoder read them: one array per value, the
 * request's own copy out of the frame (the frame is freed before the request runs, and the
 * array is what a written cell keeps: no second copy). Seen as the list of buffers
 * {@link QueryOptions#values} is; the statement layer takes the arrays through {@link #bytes}
 * instead, so no ByteBuffer is made per value per request. Filled once by the decoder, then
 * never changed.
 */
public final class BoundValues extends AbstractList<ByteBuffer> implements RandomAccess {
  /** What {@link #bytes} returns for an unset value (compare by identity). */
  public static final byte[] UNSET = new byte[0];

  private final byte[][] values;

  public BoundValues(int count) {
    this.values = new byte[count][];
  }

  /** For the decoder: value {@code i}, null for NULL, {@link #UNSET} for unset. */
  public void put(int i, byte[] value) {
    values[i] = value;
  }

  /** Value {@code i}: null for NULL, {@link #UNSET} for unset; never written by the caller. */
  public byte[] bytes(int i) {
    return values[i];
  }

  @Override
  public ByteBuffer get(int i) {
    byte[] v = values[i];
    return v == null ? null : v == UNSET ? QueryOptions.UNSET : ByteBuffer.wrap(v);
  }

  @Override
  public int size() {
    return values.length;
  }
}
