package io.cassette.lab;

import io.cassette.lab.fault.FaultKind;
import io.cassette.lab.ring.NodeLauncher;
import java.nio.file.Path;
import java.util.List;

/**
 * One run of the fault lab.
 *
 * @param nodes ring size (RF = min(3, nodes))
 * @param seeds how many of the first nodes are seeds (members of the metadata service)
 * @param runSeconds how long the workloads run (faults only inside this)
 * @param faults the kinds injected in turn; empty: a run without faults
 * @param quietSeconds between two faults
 * @param faultSeconds how long each fault lasts (a killed node stays down this long, then starts)
 * @param workloads names among {@link #KNOWN_WORKLOADS}
 * @param clients client threads per workload
 * @param maxOperations per workload, whatever the time left
 * @param thinkMillis pause after each operation of a client (keeps the 2-core machine usable)
 * @param network auto (namespaces when root with ip netns and nft, else loopback), netns, loopback
 * @param out directory for the report, the chart and the nodes' logs and data
 */
public record LabOptions(int nodes, int seeds, int runSeconds, List<FaultKind> faults, int quietSeconds, int faultSeconds,
                         List<String> workloads, int clients, long maxOperations, long thinkMillis, String network,
                         NodeLauncher launcher, Path out, long seed, String title) {
  public static final List<String> ALL_WORKLOADS = List.of("cas-register", "set", "counter", "redis-incr",
      "redis-register");
  /** Every workload: the default ones, the bank (LWT batches) and hints (replicas after hinted handoff). */
  public static final List<String> KNOWN_WORKLOADS = List.of("cas-register", "set", "counter", "redis-incr",
      "redis-register", "bank", "hints");
}
