package io.cassette.storage.sstable;

import java.util.ArrayDeque;

/**
 * Per-thread free lists of chunk-sized buffers for SSTable readers, so that a point read
 * does not allocate two chunk buffers per SSTable it touches. Each thread keeps at most
 * {@link #MAX_PER_THREAD} buffers (a read touches a few SSTables at once), of whatever
 * sizes the readers asked for.
 */
final class ChunkBufferPool {
  /** Enough for a read merging several SSTables with both index and data readers open. */
  static final int MAX_PER_THREAD = 16;
  /** Larger buffers are not kept: their rare use should not pin memory in every thread. */
  static final int MAX_POOLED_LENGTH = 128 * 1024;

  private static final ThreadLocal<ArrayDeque<byte[]>> FREE = ThreadLocal.withInitial(ArrayDeque::new);

  private ChunkBufferPool() {}

  static byte[] take(int length) {
    ArrayDeque<byte[]> free = FREE.get();
    for (int i = free.size(); i > 0; i--) {
      byte[] b = free.pollFirst();
      if (b.length == length) {
        return b;
      }
      free.addLast(b); // another size (index and data chunks differ): keep it for its reader
    }
    return new byte[length];
  }

  static void recycle(byte[] buffer) {
    if (buffer == null || buffer.length > MAX_POOLED_LENGTH) {
      return;
    }
    ArrayDeque<byte[]> free = FREE.get();
    if (free.size() < MAX_PER_THREAD) {
      free.addFirst(buffer);
    }
  }
}
