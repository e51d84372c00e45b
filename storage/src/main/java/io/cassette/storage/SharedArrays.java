package io.cassette.storage;

import java.lang.reflect.Field;

/**
 * Element access with memory ordering to arrays shared between threads without a lock, for
 * the hot paths (memtable trie, chunk cache, key cache, sub-summaries), in the few machine
 * instructions the board's JIT (C1 only) can make of it.
 *
 * <p>Why not a VarHandle or an {@code AtomicReferenceArray}: under C1 each access through an
 * array VarHandle (which {@code AtomicReferenceArray} uses) inlines two {@code Class.cast}
 * checks against classes C1 cannot treat as constants (full subtype checks), the access-mode
 * guard and the bounds check: 2.3-2.9 ns a read where a plain read is 1.1 ns (C2 folds them
 * all). {@code sun.misc.Unsafe}'s accessors are C1 intrinsics: 1.3 ns. The bounds check is
 * kept here (an index out of range would read the heap).
 *
 * <p>Orderings: a volatile read is at least an acquire (on x86 and ARMv8 the same instruction);
 * longs are read and written whole on 32-bit ARM too.
 */
@SuppressWarnings("removal") // sun.misc.Unsafe: present in every Java 17 runtime (jdk.unsupported)
public final class SharedArrays {
  private static final sun.misc.Unsafe U;
  private static final long OBJECT_BASE;
  private static final int OBJECT_SHIFT;
  private static final long LONG_BASE;

  static {
    try {
      Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
      f.setAccessible(true);
      U = (sun.misc.Unsafe) f.get(null);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
    OBJECT_BASE = U.arrayBaseOffset(Object[].class);
    OBJECT_SHIFT = Integer.numberOfTrailingZeros(U.arrayIndexScale(Object[].class));
    LONG_BASE = U.arrayBaseOffset(long[].class);
  }

  private SharedArrays() {}

  private static long offset(Object[] a, int i) {
    if (i < 0 || i >= a.length) {
      throw new ArrayIndexOutOfBoundsException(i);
    }
    return OBJECT_BASE + ((long) i << OBJECT_SHIFT);
  }

  private static long offset(long[] a, int i) {
    if (i < 0 || i >= a.length) {
      throw new ArrayIndexOutOfBoundsException(i);
    }
    return LONG_BASE + ((long) i << 3);
  }

  /** {@code a[i]}, read with (at least) acquire semantics: what a release or CAS published before it is seen. */
  public static Object getAcquire(Object[] a, int i) {
    return U.getObjectVolatile(a, offset(a, i));
  }

  /** {@code a[i] = v} with release semantics: whoever reads {@code v} with acquire sees what was written before. */
  public static void setRelease(Object[] a, int i, Object v) {
    U.putOrderedObject(a, offset(a, i), v);
  }

  /** Sets {@code a[i]} to {@code v} if it is {@code expected} (the same reference), atomically; volatile semantics. */
  public static boolean compareAndSet(Object[] a, int i, Object expected, Object v) {
    return U.compareAndSwapObject(a, offset(a, i), expected, v);
  }

  /** {@code a[i]}, read whole, with (at least) acquire semantics. */
  public static long getAcquire(long[] a, int i) {
    return U.getLongVolatile(a, offset(a, i));
  }

  /** Sets {@code a[i]} to {@code v} if it is {@code expected}, atomically; volatile semantics. */
  public static boolean compareAndSet(long[] a, int i, long expected, long v) {
    return U.compareAndSwapLong(a, offset(a, i), expected, v);
  }
}
