package io.cassette.lab.ring;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * Nodes on 127.0.0.1, 127.0.0.2, ... sharing this namespace, on ports picked free. Where root
 * and {@code nft} are available a cut is an nftables table in this namespace matching both the
 * nodes' addresses and this lab's storage and metadata ports, so other processes on the same
 * addresses (other engineers' rings) are untouched; elsewhere partitions are not offered.
 */
public final class LoopbackNetwork implements LabNetwork {
  private final String table = String.format("cassette_lab_%04x", new Random().nextInt(0x10000));
  private final int nodes;
  private final Path scratch;
  private final Ports ports;
  private final boolean nft;
  private boolean hasCut;

  public LoopbackNetwork(int nodes, Path scratch) throws IOException {
    this.nodes = nodes;
    this.scratch = scratch;
    this.ports = pickPorts(nodes);
    this.nft = "root".equals(System.getProperty("user.name")) && Shell.tryRun("nft", "--version") != null;
  }

  @Override
  public String address(int i) {
    return "127.0.0." + i;
  }

  @Override
  public List<String> wrap(int i) {
    return List.of();
  }

  @Override
  public boolean canPartition() {
    return nft;
  }

  @Override
  public synchronized void cut(Set<Integer> from, Set<Integer> to, boolean bothWays) throws IOException {
    heal();
    StringBuilder rules = new StringBuilder("table inet " + table + " {\n  chain out { type filter hook output priority 0; policy accept;\n");
    String internode = "{ " + ports.storage() + ", " + ports.metadata() + " }";
    for (int a : from) {
      for (int b : to) {
        rule(rules, a, b, internode);
        if (bothWays) {
          rule(rules, b, a, internode);
        }
      }
    }
    rules.append("  }\n}\n");
    Path file = scratch.resolve("cut.nft");
    Files.writeString(file, rules.toString(), StandardCharsets.UTF_8);
    Shell.run("nft", "-f", file.toString());
    hasCut = true;
  }

  /** Drops a -> b: requests to b's internode ports and answers from a's. */
  private void rule(StringBuilder rules, int a, int b, String internode) {
    rules.append("    ip saddr ").append(address(a)).append(" ip daddr ").append(address(b))
        .append(" tcp dport ").append(internode).append(" drop\n");
    rules.append("    ip saddr ").append(address(a)).append(" ip daddr ").append(address(b))
        .append(" tcp sport ").append(internode).append(" drop\n");
  }

  @Override
  public synchronized void heal() throws IOException {
    if (hasCut) {
      Shell.run("nft", "delete", "table", "inet", table);
      hasCut = false;
    }
  }

  @Override
  public Ports ports() {
    return ports;
  }

  @Override
  public String describe() {
    return "loopback 127.0.0.1-" + nodes + ", ports " + ports + (nft ? ", partitions by nftables" : ", no partitions (needs root and nft)");
  }

  @Override
  public void close() {
    try {
      heal();
    } catch (IOException e) {
      Shell.tryRun("nft", "delete", "table", "inet", table);
    }
  }

  /** Five consecutive ports free on every node's address. */
  private static Ports pickPorts(int nodes) throws IOException {
    Random random = new Random();
    for (int attempt = 0; attempt < 100; attempt++) {
      int base = 10_000 + random.nextInt(22_000); // below the ephemeral range (32768+): between the pick and a node's bind, a client socket could take it
      boolean free = true;
      for (int i = 1; i <= nodes && free; i++) {
        for (int p = base; p < base + 5 && free; p++) {
          free = free(InetAddress.getByName("127.0.0." + i), p);
        }
      }
      if (free) {
        return new Ports(base, base + 1, base + 2, base + 3, base + 4);
      }
    }
    throw new IOException("no five free ports");
  }

  private static boolean free(InetAddress address, int port) {
    try (ServerSocket s = new ServerSocket()) {
      s.setReuseAddress(false);
      s.bind(new InetSocketAddress(address, port));
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
