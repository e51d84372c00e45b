package io.cassette.storage.sstable;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Optionally memory-maps SSTable files for reading (a point read then copies from the page
 * cache instead of making two system calls). Off by default: mapped pages count in the
 * process's resident memory, which Cassette keeps small, and no gain could be shown on the
 * shared test machine. Turned on with {@code -Dcassette.storage.mmap=true}, and then only
 * on a 64-bit JVM (a 32-bit board has too little address space for many files) and for
 * files below 2 GiB. Mappings are released explicitly once the last reader of an SSTable is
 * done, so deleted files free their space at once.
 */
final class MappedFiles {
  static final boolean ENABLED = Boolean.parseBoolean(System.getProperty("cassette.storage.mmap", "false"))
      && "64".equals(System.getProperty("sun.arch.data.model", "64"));

  private static final Method INVOKE_CLEANER;
  private static final Object UNSAFE;

  static {
    Method m = null;
    Object u = null;
    try {
      Class<?> c = Class.forName("sun.misc.Unsafe");
      var f = c.getDeclaredField("theUnsafe");
      f.setAccessible(true);
      u = f.get(null);
      m = c.getMethod("invokeCleaner", ByteBuffer.class);
    } catch (ReflectiveOperationException | RuntimeException e) {
      // without it, mappings are released when the garbage collector finds them
    }
    INVOKE_CLEANER = m;
    UNSAFE = u;
  }

  private MappedFiles() {}

  /** The whole file mapped read-only, or null when mapping is off or not possible. */
  static MappedByteBuffer map(FileChannel channel, long size) {
    if (!ENABLED || size <= 0 || size > Integer.MAX_VALUE) {
      return null;
    }
    try {
      return channel.map(FileChannel.MapMode.READ_ONLY, 0, size);
    } catch (IOException | UnsupportedOperationException e) {
      return null; // fall back to positional reads
    }
  }

  /** Unmaps now. Requires: no thread will read the buffer again. */
  static void unmap(MappedByteBuffer buffer) {
    if (buffer == null || INVOKE_CLEANER == null) {
      return;
    }
    try {
      INVOKE_CLEANER.invoke(UNSAFE, buffer);
    } catch (ReflectiveOperationException | RuntimeException e) {
      // left to the garbage collector
    }
  }
}
