package io.cassette.storage;

import io.cassette.storage.io.BackgroundPriority;
import io.cassette.storage.io.Throttle;
import io.cassette.storage.sstable.SSTableReader;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * When compactions run: the compaction pool ({@code compaction-N} threads), one background
 * loop per table at most (it asks the table's strategy for work until there is none), the
 * shared I/O throttle, and the engine-wide counters. What a compaction does is the table's
 * ({@link io.cassette.storage.compaction.TableCompactions}). Thread-safe.
 */
final class CompactionScheduler {
  private static final Logger LOG = LoggerFactory.getLogger(CompactionScheduler.class);
  /**
   * How far compaction threads are niced above the node. At the same nice a compaction takes
   * as much of a one-core board as each request thread; 10 above (CFS weight 110 against 1024)
   * it runs on what requests leave, and still gets the core whenever they wait on the network.
   */
  static final int COMPACTION_NICE = 10;

  private final ExecutorService executor;
  private final Throttle throttle;
  /** True while the engine is closing or closed: no new background work. */
  private final BooleanSupplier closed;
  /**
   * Per table id: 0 when no background loop is scheduled or running, else the requests made
   * since the loop last looked. A request that arrives while the loop finds nothing to do (a
   * flush just after the strategy said "nothing") makes the loop look again instead of being lost.
   */
  private final ConcurrentHashMap<UUID, AtomicInteger> scheduled = new ConcurrentHashMap<>();
  /** Compactions finished, engine-wide. */
  final LongAdder completed = new LongAdder();
  /** Bytes of SSTables written by compactions, engine-wide. */
  final LongAdder bytesWritten = new LongAdder();

  CompactionScheduler(int threads, long bytesPerSecond, BooleanSupplier closed) {
    AtomicInteger n = new AtomicInteger();
    this.executor = Executors.newFixedThreadPool(Math.max(1, threads), r -> {
      Thread t = new Thread(() -> {
        BackgroundPriority.lowerCurrentThread(COMPACTION_NICE);
        r.run();
      }, "compaction-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    this.throttle = new Throttle(bytesPerSecond);
    this.closed = closed;
  }

  /** Schedules background compactions for the table unless some are already scheduled. */
  void maybeCompact(LocalTable t) {
    if (closed.getAsBoolean() || t.dropped) {
      return;
    }
    AtomicInteger requests = scheduled.computeIfAbsent(t.spec().id(), id -> new AtomicInteger());
    if (requests.getAndIncrement() != 0) {
      return; // the running loop looks again before it stops
    }
    try {
      executor.execute(() -> {
        try {
          while (true) {
            int seen = requests.get();
            while (!closed.getAsBoolean() && !t.dropped) {
              List<SSTableReader> inputs = t.compactions.nextBackgroundTask();
              if (inputs.isEmpty()) {
                break;
              }
              t.compactions.runBackground(inputs, throttle);
            }
            if (closed.getAsBoolean() || t.dropped) {
              requests.set(0);
              break;
            }
            if (requests.compareAndSet(seen, 0)) {
              break; // nothing asked for since this look began
            }
          }
        } catch (RuntimeException e) {
          requests.set(0); // the next flush starts a new loop
          if (!closed.getAsBoolean()) {
            LOG.error("background compaction of {} failed", t, e);
          }
        }
      });
    } catch (RejectedExecutionException e) {
      requests.set(0);
    }
  }

  /** Runs a compaction of marked inputs on the compaction pool. */
  CompletableFuture<Void> run(LocalTable t, List<SSTableReader> inputs) {
    return CompletableFuture.runAsync(() -> t.compactions.run(inputs, throttle), executor);
  }

  /** Runs a cleanup (a compaction keeping only the tokens {@code keepToken} accepts) on the compaction pool. */
  CompletableFuture<Void> cleanup(LocalTable t, List<SSTableReader> inputs, java.util.function.LongPredicate keepToken) {
    return CompletableFuture.runAsync(() -> t.compactions.cleanup(inputs, throttle, keepToken), executor);
  }

  /** Changes the I/O cap at once; 0 = unthrottled. */
  void setRate(long bytesPerSecond) {
    throttle.setRate(bytesPerSecond);
  }

  /** Lets running compactions finish (up to 30 s, then interrupts them); no new ones start. */
  void shutdown() throws InterruptedException {
    executor.shutdown();
    if (!executor.awaitTermination(30, TimeUnit.SECONDS)) {
      executor.shutdownNow();
    }
  }

  /** Interrupts running compactions and waits (up to 30 s) for them to stop. */
  void shutdownNow() throws InterruptedException {
    executor.shutdownNow();
    executor.awaitTermination(30, TimeUnit.SECONDS);
  }
}
