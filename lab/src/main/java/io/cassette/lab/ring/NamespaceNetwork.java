package io.cassette.lab.ring;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * One network namespace per node, as if each were its own board, joined by a bridge in a
 * namespace of its own, with a veth from this namespace so the lab's clients reach every node
 * (the shape of tools' {@code PartitionedRingTest}):
 *
 * <pre>
 *   lab JVM (this namespace) ── veth ──┐
 *   ns PREFIX-n1: eth0 10.A.B.1 ─ veth ─┤
 *   ns PREFIX-n2: eth0 10.A.B.2 ─ veth ─┼── bridge br0 in ns PREFIX-sw
 *   ...                                 ┘
 * </pre>
 *
 * A cut is an nftables table inside each node's namespace that drops packets from (input) and to
 * (output) the other side's addresses; the lab's address (10.A.B.100) is never dropped. Needs
 * root, {@code ip netns} and {@code nft}; everything is deleted by {@link #close}.
 */
public final class NamespaceNetwork implements LabNetwork {
  private static final String TABLE = "cassette_lab_cut";
  private final int nodes;
  /**
   * Names of this lab's namespaces and host link: {@code CASSETTE_LAB_NETNS_PREFIX} (default
   * "lab") and 4 random hex digits, so labs run by several people on one machine are told apart
   * (the host link's name, prefix + 5 characters, must fit Linux's 15).
   */
  private final String prefix = prefix(System.getenv("CASSETTE_LAB_NETNS_PREFIX"))
      + String.format("%04x", new Random().nextInt(0x10000));
  private final List<String> namespaces = new ArrayList<>();
  private final Path scratch;
  private String subnet;
  private String hostLink;
  private final boolean[] hasCut;

  private NamespaceNetwork(int nodes, Path scratch) {
    this.nodes = nodes;
    this.scratch = scratch;
    this.hasCut = new boolean[nodes + 1];
  }

  /** Whether namespaces can be made here: root, iproute2 and nftables. */
  public static boolean available() {
    return "root".equals(System.getProperty("user.name")) && Shell.tryRun("ip", "netns", "list") != null
        && Shell.tryRun("nft", "--version") != null;
  }

  public static NamespaceNetwork create(int nodes, Path scratch) throws IOException {
    NamespaceNetwork n = new NamespaceNetwork(nodes, scratch);
    try {
      n.build();
    } catch (IOException | RuntimeException e) {
      n.close();
      throw e;
    }
    return n;
  }

  private static String prefix(String configured) {
    if (configured == null || configured.isEmpty()) {
      return "lab";
    }
    if (!configured.matches("[a-z0-9]{1,10}")) {
      throw new IllegalArgumentException("CASSETTE_LAB_NETNS_PREFIX must be 1-10 lower-case letters or digits, not "
          + configured);
    }
    return configured;
  }

  private String ns(int i) {
    return prefix + (i == 0 ? "-sw" : "-n" + i);
  }

  private void build() throws IOException {
    subnet = freeSubnet();
    for (int i = 0; i <= nodes; i++) {
      Shell.run("ip", "netns", "add", ns(i));
      namespaces.add(ns(i));
    }
    Shell.run("ip", "-n", ns(0), "link", "add", "br0", "type", "bridge");
    Shell.run("ip", "-n", ns(0), "link", "set", "br0", "up");
    for (int i = 1; i <= nodes; i++) {
      Shell.run("ip", "link", "add", "v" + i, "netns", ns(0), "type", "veth", "peer", "name", "eth0", "netns", ns(i));
      Shell.run("ip", "-n", ns(0), "link", "set", "v" + i, "master", "br0", "up");
      Shell.run("ip", "-n", ns(i), "addr", "add", address(i) + "/24", "dev", "eth0");
      Shell.run("ip", "-n", ns(i), "link", "set", "eth0", "up");
      Shell.run("ip", "-n", ns(i), "link", "set", "lo", "up");
    }
    hostLink = prefix + "h";
    Shell.run("ip", "link", "add", hostLink, "type", "veth", "peer", "name", "vh", "netns", ns(0));
    Shell.run("ip", "-n", ns(0), "link", "set", "vh", "master", "br0", "up");
    Shell.run("ip", "addr", "add", subnet + "100/24", "dev", hostLink);
    Shell.run("ip", "link", "set", hostLink, "up");
  }

  /** "10.A.B." for a /24 no address or route of this namespace uses. */
  private static String freeSubnet() throws IOException {
    String used = Shell.run("ip", "-4", "addr") + Shell.run("ip", "-4", "route");
    Random random = new Random();
    for (int attempt = 0; attempt < 100; attempt++) {
      String s = "10." + (200 + random.nextInt(50)) + "." + random.nextInt(256) + ".";
      if (!used.contains(s)) {
        return s;
      }
    }
    throw new IOException("no free 10.x.y.0/24 subnet");
  }

  @Override
  public String address(int i) {
    return subnet + i;
  }

  @Override
  public List<String> wrap(int i) {
    return List.of("ip", "netns", "exec", ns(i));
  }

  @Override
  public boolean canPartition() {
    return true;
  }

  @Override
  public synchronized void cut(Set<Integer> from, Set<Integer> to, boolean bothWays) throws IOException {
    heal();
    for (int i = 1; i <= nodes; i++) {
      StringBuilder in = new StringBuilder();
      StringBuilder out = new StringBuilder();
      // Node i drops what it sends to the far side (it is in `from`) and, both ways, what it receives.
      if (from.contains(i)) {
        out.append(addresses(to));
        if (bothWays) {
          in.append(addresses(to));
        }
      }
      if (to.contains(i) && bothWays) {
        out.append(out.length() > 0 ? ", " : "").append(addresses(from));
        in.append(in.length() > 0 ? ", " : "").append(addresses(from));
      }
      if (in.length() == 0 && out.length() == 0) {
        continue;
      }
      StringBuilder rules = new StringBuilder("table inet " + TABLE + " {\n");
      rules.append("  chain in { type filter hook input priority 0; policy accept; ");
      if (in.length() > 0) {
        rules.append("ip saddr { ").append(in).append(" } drop; ");
      }
      rules.append("}\n  chain out { type filter hook output priority 0; policy accept; ");
      if (out.length() > 0) {
        rules.append("ip daddr { ").append(out).append(" } drop; ");
      }
      rules.append("}\n}\n");
      Path file = scratch.resolve("cut-n" + i + ".nft");
      Files.writeString(file, rules.toString(), StandardCharsets.UTF_8);
      Shell.run("ip", "netns", "exec", ns(i), "nft", "-f", file.toString());
      hasCut[i] = true;
    }
  }

  private String addresses(Set<Integer> group) {
    StringBuilder b = new StringBuilder();
    for (int j : group) {
      b.append(b.length() > 0 ? ", " : "").append(address(j));
    }
    return b.toString();
  }

  @Override
  public synchronized void heal() throws IOException {
    for (int i = 1; i <= nodes; i++) {
      if (hasCut[i]) {
        Shell.run("ip", "netns", "exec", ns(i), "nft", "delete", "table", "inet", TABLE);
        hasCut[i] = false;
      }
    }
  }

  @Override
  public Ports ports() {
    return new Ports(9042, 6379, 9180, 7000, 7001);
  }

  @Override
  public String describe() {
    return "network namespaces " + ns(1) + ".." + ns(nodes) + " on " + subnet + "0/24, partitions by nftables";
  }

  @Override
  public void close() {
    for (String ns : namespaces) {
      Shell.tryRun("ip", "netns", "del", ns);
    }
    namespaces.clear();
    if (hostLink != null) {
      Shell.tryRun("ip", "link", "del", hostLink);
      hostLink = null;
    }
  }
}
