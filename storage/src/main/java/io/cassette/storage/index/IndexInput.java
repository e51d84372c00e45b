package io.cassette.storage.index;

import io.cassette.storage.StorageException;
import io.cassette.storage.io.ReadChannel;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A cursor over an index component: positional reads through a small window, so a lookup
 * costs the pages it touches and nothing stays in the heap. One per reading thread (the
 * channel is shared, the window is not).
 */
final class IndexInput {
  private static final int WINDOW = 4096;
  private final ReadChannel channel;
  private final long length;
  private final ByteBuffer window = ByteBuffer.allocate(WINDOW);
  /** File offset of window[0]; the window holds [start, start + window.limit()). */
  private long start = -1;
  private long position;

  IndexInput(ReadChannel channel, long length) {
    this.channel = channel;
    this.length = length;
    window.limit(0);
  }

  long position() {
    return position;
  }

  void seek(long position) {
    this.position = position;
  }

  private void fill(int needed) {
    if (start >= 0 && position >= start && position + needed <= start + window.limit()) {
      return;
    }
    if (position + needed > length) {
      throw new StorageException("index component " + channel.path() + " truncated: reading " + needed
          + " bytes at offset " + position + " (length " + length + ")");
    }
    window.clear();
    window.limit((int) Math.min(WINDOW, length - position));
    try {
      while (window.hasRemaining()) {
        if (channel.read(window, position + window.position()) < 0) {
          break;
        }
      }
    } catch (IOException e) {
      throw new StorageException("cannot read index component " + channel.path() + " at offset " + position + ": " + e, e);
    }
    window.flip();
    start = position;
  }

  int byte1() {
    fill(1);
    return window.get((int) (position++ - start)) & 0xFF;
  }

  int int4() {
    fill(4);
    int v = window.getInt((int) (position - start));
    position += 4;
    return v;
  }

  long long8() {
    fill(8);
    long v = window.getLong((int) (position - start));
    position += 8;
    return v;
  }

  float float4() {
    return Float.intBitsToFloat(int4());
  }

  int vint() {
    int v = 0;
    for (int shift = 0; ; shift += 7) {
      int b = byte1();
      v |= (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        return v;
      }
    }
  }

  byte[] bytes(int n) {
    byte[] b = new byte[n];
    int done = 0;
    while (done < n) {
      int chunk = Math.min(n - done, WINDOW);
      fill(chunk);
      window.get((int) (position - start), b, done, chunk);
      position += chunk;
      done += chunk;
    }
    return b;
  }

  byte[] lengthPrefixed() {
    return bytes(vint());
  }

  /** Reads {@code out.length} floats from here. */
  void floats(float[] out) {
    int n = out.length * 4;
    if (n <= WINDOW) {
      fill(n);
      int at = (int) (position - start);
      for (int i = 0; i < out.length; i++) {
        out[i] = window.getFloat(at + 4 * i);
      }
      position += n;
      return;
    }
    for (int i = 0; i < out.length; i++) {
      out[i] = float4();
    }
  }
}
