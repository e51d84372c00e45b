package io.cassette.bench.jmh;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A/B of two revisions in one JVM, robust to a loaded machine: one benchmark class is loaded
 * from two classpaths (say base and new storage jars) in two class loaders, and calls of its
 * benchmark method alternate between them, so both sides see the same load at each moment.
 * Prints the thread CPU time per operation of each and their ratio. Separate JMH runs on the
 * shared 2-core machine moved 40% from run to run on the same code; this gave the same ratio
 * twice (bench/results/2026-12-02-writestore.md).
 *
 * <pre>java -cp bench/target/classes io.cassette.bench.jmh.InterleavedAb BASE_CP_FILE NEW_CP_FILE CLASS METHOD
 *     OPS_PER_CALL ROUNDS [field=value ...]</pre>
 *
 * A classpath file holds one colon-separated classpath (as bench/target/jmh-classpath.txt plus
 * the bench classes). The class needs a public no-argument constructor and a public
 * {@code setUp()}; fields are public String {@code @Param}s. The first fifth of the rounds
 * is warm-up. Example: {@code FlushBenchmark compact 80000 30 keys=disjoint compression=none}.
 */
public final class InterleavedAb {
  private InterleavedAb() {}

  public static void main(String[] a) throws Exception {
    String className = a[2].contains(".") ? a[2] : "io.cassette.bench.jmh." + a[2];
    long opsPerCall = Long.parseLong(a[4]);
    int rounds = Integer.parseInt(a[5]);
    Object[] bench = new Object[2];
    Method[] method = new Method[2];
    for (int i = 0; i < 2; i++) {
      List<URL> urls = new ArrayList<>();
      for (String p : Files.readString(Path.of(a[i])).trim().split(":")) {
        if (!p.isEmpty()) {
          urls.add(Path.of(p).toUri().toURL());
        }
      }
      ClassLoader cl = new URLClassLoader(urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
      Class<?> c = cl.loadClass(className);
      Object b = c.getConstructor().newInstance();
      for (int f = 6; f < a.length; f++) {
        String[] kv = a[f].split("=", 2);
        c.getField(kv[0]).set(b, kv[1]);
      }
      c.getMethod("setUp").invoke(b);
      bench[i] = b;
      method[i] = c.getMethod(a[3]);
    }
    ThreadMXBean t = ManagementFactory.getThreadMXBean();
    long[] cpu = new long[2];
    for (int r = 0; r < rounds; r++) {
      for (int k = 0; k < 2; k++) {
        int i = (r + k) % 2; // each side goes first every other round
        long c0 = t.getCurrentThreadCpuTime();
        method[i].invoke(bench[i]);
        long c1 = t.getCurrentThreadCpuTime();
        if (r >= rounds / 5) {
          cpu[i] += c1 - c0;
        }
      }
    }
    long calls = rounds - rounds / 5;
    System.out.printf("%s.%s %s: A %.3f us/op, B %.3f us/op, B/A %.3f (%d calls each)%n", a[2], a[3],
        String.join(" ", java.util.Arrays.copyOfRange(a, 6, a.length)), cpu[0] / 1e3 / calls / opsPerCall,
        cpu[1] / 1e3 / calls / opsPerCall, (double) cpu[1] / cpu[0], calls);
    for (Object b : bench) {
      try {
        b.getClass().getMethod("tearDown").invoke(b);
      } catch (NoSuchMethodException e) {
        // nothing to tear down
      }
    }
  }
}
