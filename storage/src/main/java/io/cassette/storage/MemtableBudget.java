package io.cassette.storage;

import io.cassette.storage.memtable.Memtable;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;

/**
 * The memory all memtables share ({@code memtableBudgetBytes}): bytes in active memtables
 * and in memtables switched out for a flush. The engine flushes the largest table when
 * active memtables hold half of it; writers wait ({@link #awaitRoom}) while active plus
 * flushing hold all of it. A memtable whose flush failed stops counting (it stays readable):
 * writers then fail at the commit log with a clear error instead of waiting forever.
 * Thread-safe.
 */
final class MemtableBudget {
  private final long budgetBytes;
  private final AtomicLong activeBytes = new AtomicLong();
  private final AtomicLong flushingBytes = new AtomicLong();
  /** Writers waiting for room wait on this; flushes that end notify it. */
  private final Object room = new Object();
  /** Memtables switched out whose bytes still count in flushingBytes (each is released once). */
  private final Set<Memtable> countedAsFlushing = ConcurrentHashMap.newKeySet();
  private final AtomicInteger pendingFlushes = new AtomicInteger();
  final LongAdder writeStalls = new LongAdder();
  final LongAdder writeStallMicros = new LongAdder();

  MemtableBudget(long budgetBytes) {
    this.budgetBytes = budgetBytes;
  }

  long budgetBytes() {
    return budgetBytes;
  }

  /** Bytes in active and flushing memtables. */
  long usedBytes() {
    return activeBytes.get() + flushingBytes.get();
  }

  /** True when active memtables hold more than half the budget: time to flush the largest. */
  boolean activeOverHalf() {
    return activeBytes.get() > budgetBytes / 2;
  }

  /** Active memtables grew (or, negative, were dropped or truncated) by {@code bytes}. */
  void addActive(long bytes) {
    activeBytes.addAndGet(bytes);
  }

  /** The memtable was switched out for a flush: its bytes count as flushing until {@link #flushEnded}. */
  void switchedOut(Memtable memtable) {
    long bytes = memtable.liveBytes();
    activeBytes.addAndGet(-bytes);
    flushingBytes.addAndGet(bytes);
    pendingFlushes.incrementAndGet();
    countedAsFlushing.add(memtable);
  }

  /** The flush of {@code memtable} (null: a retry only) ended, written or failed; wakes waiting writers. */
  void flushEnded(Memtable memtable) {
    if (memtable != null && countedAsFlushing.remove(memtable)) {
      flushingBytes.addAndGet(-memtable.liveBytes());
      pendingFlushes.decrementAndGet();
    }
    synchronized (room) {
      room.notifyAll();
    }
  }

  int pendingFlushes() {
    return pendingFlushes.get();
  }

  /**
   * Waits while memtables hold the whole budget (a visible stall: {@link #writeStalls}).
   * When nothing is flushing it asks for a flush ({@code startFlush}); when there is nothing
   * left to flush ({@code flushRunning} false) it lets the write through rather than deadlock.
   */
  /** Whether a writer may go on without waiting ({@link #awaitRoom} would return at once). */
  boolean hasRoom() {
    return usedBytes() < budgetBytes;
  }

  void awaitRoom(BooleanSupplier closed, Runnable startFlush, BooleanSupplier flushRunning) {
    if (usedBytes() < budgetBytes) {
      return;
    }
    long t0 = System.nanoTime();
    writeStalls.increment();
    try {
      synchronized (room) {
        while (usedBytes() >= budgetBytes && !closed.getAsBoolean()) {
          if (flushingBytes.get() == 0) {
            startFlush.run();
            if (flushingBytes.get() == 0 && !flushRunning.getAsBoolean()) {
              break; // nothing left to flush: do not deadlock, let the write through
            }
          }
          room.wait(50);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StorageException("interrupted while waiting for memtable memory");
    } finally {
      writeStallMicros.add((System.nanoTime() - t0) / 1000);
    }
  }
}
