package io.cassette.resp.keyspace;

import java.nio.charset.StandardCharsets;
import java.util.Random;

/**
 * The metadata cache's lookup alone, as redis-benchmark's set/get/incr load makes it: the
 * 200,000 keys of {@code key:*} and {@code counter:*} in a 128 MiB node's share
 * ({@link Keyspace#META_CACHE_HEAP_DIVISOR}), then rounds of lookups of random ones
 * ({@code entry}, GET's path) and same-length rewrites ({@code putEncoded}, INCR's), timed
 * per operation (the thread's CPU time). In the package because the cache is package-private. Run one JVM per
 * revision with that revision's cassette-resp jar first on the class path, alternating
 * (bench/metacache-probe does), in the board's JVM settings: the figure is a ratio between
 * revisions in the same run, not a claim about a board.
 *
 * <p>args: [rounds (default 7)] [operations a round (default 2,000,000)] [keys looked up
 * (default all 200,000; a few hundred: the CPU cost without memory stalls)]
 */
public final class MetaCacheProbe {
  public static void main(String[] args) {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 7;
    int ops = args.length > 1 ? Integer.parseInt(args[1]) : 2_000_000;
    int touched = args.length > 2 ? Integer.parseInt(args[2]) : 200_000; // fewer: cache-resident
    long budget = 123L * 1024 * 1024 / Keyspace.META_CACHE_HEAP_DIVISOR;
    MetaCache cache = new MetaCache(budget);
    int n = 100_000;
    byte[][] keys = new byte[2 * n][];
    byte[] xxx = KeyMeta.string("xxx".getBytes(StandardCharsets.US_ASCII), 0).encode();
    for (int i = 0; i < n; i++) {
      keys[2 * i] = String.format("key:%012d", i).getBytes(StandardCharsets.US_ASCII);
      keys[2 * i + 1] = String.format("counter:%012d", i).getBytes(StandardCharsets.US_ASCII);
      cache.putEncoded(0, keys[2 * i], xxx);
      cache.putEncoded(0, keys[2 * i + 1], KeyMeta.encodeLong(100_000 + i, 0));
    }
    Random random = new Random(7);
    int[] order = new int[1 << 20];
    for (int i = 0; i < order.length; i++) {
      order[i] = random.nextInt(touched);
    }
    java.lang.management.ThreadMXBean cpu = java.lang.management.ManagementFactory.getThreadMXBean();
    long sink = 0;
    for (int r = 0; r < rounds; r++) {
      long t0 = cpu.getCurrentThreadCpuTime(); // CPU, not wall: the machine may be loaded
      for (int i = 0; i < ops; i++) {
        byte[] e = cache.entry(0, keys[order[i & (order.length - 1)]]);
        sink += e == null ? 1 : e[e.length >> 1];
      }
      long t1 = cpu.getCurrentThreadCpuTime();
      for (int i = 0; i < ops / 4; i++) {
        int k = order[(i * 7) & (order.length - 1)] | 1; // a counter: same-length value
        cache.putEncoded(0, keys[k], KeyMeta.encodeLong(100_000 + (k >> 1) + (i & 1), 0));
      }
      long t2 = cpu.getCurrentThreadCpuTime();
      System.out.printf("round %d: lookup %.1f ns, rewrite %.1f ns, held %d%n", r,
          (t1 - t0) / (double) ops, (t2 - t1) / (double) (ops / 4), cache.size());
    }
    System.out.println("sink " + sink);
  }
}
