package io.cassette.lab.ring;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * How a node's process is started: {@code bin/cassette start} of a distribution (what users
 * run), or {@code java -cp CLASSPATH io.cassette.server.Main start} (what bin/cassette runs;
 * for tests, whose class path holds the server). Each JVM gets {@code jvmOptions} (e.g. a test
 * fault's system property): bin/cassette through {@code CASSETTE_JAVA_OPTS}.
 */
public record NodeLauncher(Path launcher, String classPath, String heap, List<String> jvmOptions,
                           Map<Integer, List<String>> nodeOptions) {
  public static NodeLauncher binCassette(Path binCassette, String heap, List<String> jvmOptions) {
    return new NodeLauncher(binCassette, null, heap, jvmOptions, Map.of());
  }

  public static NodeLauncher classPath(String classPath, String heap, List<String> jvmOptions) {
    return new NodeLauncher(null, classPath, heap, jvmOptions, Map.of());
  }

  /** The same, with more JVM options for some nodes (by index from 1), e.g. one clock offset each. */
  public NodeLauncher withNodeOptions(Map<Integer, List<String>> perNode) {
    return new NodeLauncher(launcher, classPath, heap, jvmOptions, Map.copyOf(perNode));
  }

  private List<String> options(int index) {
    List<String> all = new ArrayList<>(jvmOptions);
    all.addAll(nodeOptions.getOrDefault(index, List.of()));
    return all;
  }

  /** The command up to and including "start", for node {@code index}. */
  List<String> command(int index) {
    List<String> cmd = new ArrayList<>();
    if (launcher != null) {
      cmd.add(launcher.toString());
      cmd.add("start");
      cmd.add("--heap");
      cmd.add(heap);
    } else {
      cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      cmd.add("-Xmx" + heap);
      cmd.add("-XX:+UseSerialGC");
      cmd.add("-XX:TieredStopAtLevel=1");
      cmd.add("-XX:+ExitOnOutOfMemoryError");
      cmd.addAll(options(index));
      cmd.add("-cp");
      cmd.add(classPath);
      cmd.add("io.cassette.server.Main");
      cmd.add("start");
    }
    return cmd;
  }

  void environment(Map<String, String> env, int index) {
    env.keySet().removeIf(k -> k.startsWith("CASSETTE_"));
    if (launcher != null) {
      List<String> opts = new ArrayList<>(List.of("-XX:+UseSerialGC"));
      opts.addAll(options(index));
      env.put("CASSETTE_JAVA_OPTS", String.join(" ", opts));
    }
  }

  public String describe() {
    return (launcher != null ? launcher + " start" : "java -cp <test class path> io.cassette.server.Main start")
        + ", heap " + heap + (jvmOptions.isEmpty() ? "" : ", JVM options " + jvmOptions)
        + (nodeOptions.isEmpty() ? "" : ", per node " + new java.util.TreeMap<>(nodeOptions));
  }
}
