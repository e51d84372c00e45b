package io.cassette.storage.index;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The one thread, for the whole process, that builds the graphs of vector index components
 * written without one (by a flush, a compaction or a rebuild). A graph over 100k vectors of 128
 * floats is minutes of CPU on a board: built on the flush thread it held back the memtable
 * flush and every write waiting for memtable space behind it. Here it runs one build at a time
 * beside the write path (on a 2-core board, at most one core), while searches of that SSTable
 * score every vector until the graph is in place. Like Cassandra's compaction threads it asks
 * for the lowest thread priority (which Linux JVMs ignore unless told otherwise).
 *
 * <p>Tasks are cheap to queue (one per SSTable and vector index) and check when they run, and
 * every few hundred vectors, whether their component is still the live one, so a compacted or
 * dropped SSTable's build stops early.
 */
final class VectorGraphBuilds {
  private static final ExecutorService EXECUTOR = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
      new LinkedBlockingQueue<>(), r -> {
        Thread t = new Thread(r, "sai-graph-build");
        t.setDaemon(true);
        t.setPriority(Thread.MIN_PRIORITY);
        return t;
      });

  private VectorGraphBuilds() {}

  static void submit(Runnable build) {
    EXECUTOR.execute(build);
  }
}
