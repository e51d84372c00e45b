package io.cassette.lab;

import io.cassette.lab.fault.FaultKind;
import io.cassette.lab.ring.NodeLauncher;
import java.nio.file.Path;
import java.util.List;

/** Options for the lab's tests: nodes from the test class path, reports under target/fault-lab. */
final class LabRuns {
  private LabRuns() {}

  static LabOptions options(String name, int nodes, int seconds, List<FaultKind> faults, int quiet, int faultSeconds,
                            List<String> workloads, int clients, List<String> jvmOptions) {
    if (!io.cassette.lab.ring.LabNetwork.partitionsAvailable() && faults.stream().anyMatch(FaultKind::isPartition)) {
      // the lab refuses partitions it cannot inject; without root and nft the test runs the other faults
      System.out.println("NOTE: partitions need root and nftables here: test " + name + " runs without them");
      faults = faults.stream().filter(k -> !k.isPartition()).toList();
      org.junit.jupiter.api.Assumptions.assumeFalse(faults.isEmpty(), "test " + name + " is about partitions");
    }
    NodeLauncher launcher = NodeLauncher.classPath(System.getProperty("java.class.path"), "128m", jvmOptions);
    Path out = Path.of("target", "fault-lab", name + "-" + System.currentTimeMillis()).toAbsolutePath();
    return new LabOptions(nodes, 1, seconds, faults, quiet, faultSeconds, workloads, clients, 20_000, 10, "auto",
        launcher, out, 18, "fault lab test " + name + ": " + nodes + " nodes, " + seconds + " s, faults " + faults
        + (jvmOptions.isEmpty() ? "" : ", TEST FAULT " + jvmOptions));
  }
}
