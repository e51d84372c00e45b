package io.cassette.cql;

import java.nio.ByteBuffer;
import java.util.AbstractList;
import java.util.List;
import java.util.RandomAccess;

/**
 * A result row over the serialized values a SELECT computed, as the list of buffers
 * {@link Result.Rows} holds. The RESULT encoder reads {@link #bytes} and writes each value
 * once into the outgoing frame; wrapping every value in a ByteBuffer (and the encoder
 * duplicating it again) cost two objects per value per row. {@link #get} still wraps, for
 * the few readers of results that are not the encoder. The values are never written.
 */
public final class ValueRow extends AbstractList<ByteBuffer> implements RandomAccess {
  private final List<byte[]> values;

  /** Takes {@code values} as they are (no copy): the caller must not change them afterwards. */
  public ValueRow(List<byte[]> values) {
    this.values = values;
  }

  /** Value {@code i}, serialized, or null for a null cell. Never written by the caller. */
  public byte[] bytes(int i) {
    return values.get(i);
  }

  @Override
  public ByteBuffer get(int i) {
    byte[] v = values.get(i);
    return v == null ? null : ByteBuffer.wrap(v);
  }

  @Override
  public int size() {
    return values.size();
  }
}
