package io.cassette.server;

/**
 * Every memory pool and thread count of a node, derived from the heap and the processors the
 * JVM reports (both container-aware), so a node fits the board it runs on. Explicit settings
 * ({@code memtable_heap_space}, {@code concurrent_compactors}) override the derived values.
 *
 * @param heapBytes              {@code Runtime.maxMemory()}
 * @param processors             {@code Runtime.availableProcessors()}
 * @param memtableBytes          all memtables together (Cassandra: 1/4 of the heap)
 * @param cacheBytes             partition-index and block caches together
 * @param commitLogBacklogBytes  unsynced commit-log bytes before writers wait
 * @param ioThreads              network event-loop threads, shared by all front doors
 * @param requestThreads         threads executing requests against storage
 * @param compactionThreads      background compaction threads
 */
public record ResourceSizing(long heapBytes, int processors, long memtableBytes, long cacheBytes,
                             long commitLogBacklogBytes, int ioThreads, int requestThreads,
                             int compactionThreads) {

  /** Below this heap the node cannot hold its memtables, buffers and a few connections. */
  public static final long MIN_HEAP_BYTES = 32L << 20;
  /** Share of the heap for memtables, as Cassandra's memtable_heap_space default. */
  static final int MEMTABLE_HEAP_DIVISOR = 4;
  /** Share of the heap for caches (Cassandra's key cache takes 5%). */
  static final int CACHE_HEAP_DIVISOR = 20;
  /** Share of the heap that unsynced commit-log data may take before back-pressure. */
  static final int BACKLOG_HEAP_DIVISOR = 16;
  /** Upper bound of the backlog: more only delays back-pressure on a stalled card. */
  static final long MAX_BACKLOG_BYTES = 16L << 20;
  /** More event loops than this buys nothing on a small machine. */
  static final int MAX_IO_THREADS = 4;
  /** Requests block on storage I/O; two per core keeps a slow card busy without thrashing. */
  static final int REQUEST_THREADS_PER_CORE = 2;
  /**
   * In a ring a request thread mostly waits: a QUORUM write or read holds it for a round trip
   * to the replicas, so a node serves at most threads / round trip requests whatever its cores
   * do. Measured on a 3-node ring sharing one core: 2 threads capped it near 1k writes/s.
   */
  public static final int MIN_RING_REQUEST_THREADS = 16;

  public static ResourceSizing forThisJvm(Long memtableOverride, Integer compactorsOverride) {
    Runtime rt = Runtime.getRuntime();
    return derive(rt.maxMemory(), rt.availableProcessors(), memtableOverride, compactorsOverride);
  }

  /**
   * @throws IllegalArgumentException when the heap is too small, or an override does not fit
   */
  public static ResourceSizing derive(long heapBytes, int processors, Long memtableOverride,
                                      Integer compactorsOverride) {
    if (heapBytes < MIN_HEAP_BYTES) {
      throw new IllegalArgumentException("A heap of " + mib(heapBytes) + " is too small: Cassette"
          + " needs at least " + mib(MIN_HEAP_BYTES) + " (start with --heap 64m or more)");
    }
    int cores = Math.max(1, processors);
    long memtable = heapBytes / MEMTABLE_HEAP_DIVISOR;
    if (memtableOverride != null) {
      if (memtableOverride > heapBytes / 2) {
        throw new IllegalArgumentException("memtable_heap_space of " + mib(memtableOverride)
            + " does not fit a heap of " + mib(heapBytes) + ": at most half the heap ("
            + mib(heapBytes / 2) + ")");
      }
      memtable = memtableOverride;
    }
    long cache = heapBytes / CACHE_HEAP_DIVISOR;
    long backlog = Math.min(MAX_BACKLOG_BYTES, heapBytes / BACKLOG_HEAP_DIVISOR);
    int io = Math.min(cores, MAX_IO_THREADS);
    int requests = cores * REQUEST_THREADS_PER_CORE;
    int compactors = compactorsOverride != null ? compactorsOverride : Math.max(1, Math.min(2, cores / 2));
    if (compactors < 1) {
      throw new IllegalArgumentException("concurrent_compactors must be at least 1, not " + compactors);
    }
    return new ResourceSizing(heapBytes, cores, memtable, cache, backlog, io, requests, compactors);
  }

  /** The one summary line printed at start. */
  public String summary() {
    return "Resources: heap " + mib(heapBytes) + ", " + processors + " core(s) -> memtables "
        + mib(memtableBytes) + ", caches " + mib(cacheBytes) + ", commit-log backlog "
        + mib(commitLogBacklogBytes) + ", threads: io " + ioThreads + ", requests "
        + requestThreads + ", compaction " + compactionThreads;
  }

  static String mib(long bytes) {
    return (bytes >> 20) + " MiB";
  }
}
