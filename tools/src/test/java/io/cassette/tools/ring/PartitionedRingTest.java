package io.cassette.tools.ring;

import static io.cassette.tools.ring.RingProcesses.DDL_TIMEOUT;
import static io.cassette.tools.ring.RingProcesses.DOWN_BOUND;
import static io.cassette.tools.ring.RingProcesses.countState;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.Node;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Three real nodes ({@code Main start}, the java command bin/cassette runs), each in its own
 * network namespace as if on its own board, all three seeds and so all three members of the
 * metadata service; then one board is cut off from the other two with nftables (rules inside
 * its namespace, so this test still reaches it) and healed again:
 *
 * <ul>
 *   <li>the others call it DN (and it calls them DN) within the failure detector's bound;
 *   <li>the majority keeps the metadata service: DDL through a majority node succeeds;
 *   <li>DDL through the cut-off node fails with "metadata service unavailable", while its
 *       reads and writes of partitions it owns go on;
 *   <li>healed, it is UN everywhere again and has caught up: one schema version on all three.
 * </ul>
 *
 * <pre>
 *   test JVM (this namespace) ── veth ──┐
 *   ns PREFIX-n1: eth0 10.A.B.1 ── veth ─┤
 *   ns PREFIX-n2: eth0 10.A.B.2 ── veth ─┼── bridge br0 in ns PREFIX-sw
 *   ns PREFIX-n3: eth0 10.A.B.3 ── veth ─┘
 * </pre>
 * Everything is created here with {@code ip} and removed after the test, even when it fails.
 * Needs root and {@code ip netns}; skipped otherwise. Without {@code nft} (Debian package
 * {@code nftables}) the cut is {@code ip link set down} on the board's bridge port, which
 * also cuts this test off from it: the checks on the cut-off node are then skipped.
 * About 60 s.
 */
class PartitionedRingTest {
  /** How long the majority may need to elect a new leader if the cut-off node led (election 1-2 s, step-down 4 s). */
  private static final Duration FAILOVER_BOUND = Duration.ofSeconds(30);
  private static final int CQL_PORT = 9042;
  private static final int HTTP_PORT = 9180;
  private static final String CUT_TABLE = "cassette_test_cut";

  private final String prefix = String.format("cst%04x", new Random().nextInt(0x10000));
  private final List<String> namespaces = new ArrayList<>();
  @RegisterExtension
  final RingProcesses ring = new RingProcesses(3);
  private String subnet;
  private String hostLink;

  @AfterEach
  void removeEverything() throws Exception {
    if (ring != null) {
      ring.close();
    }
    // Deleting a namespace deletes its interfaces, and a veth pair dies with either end.
    for (String ns : namespaces) {
      run(false, "ip", "netns", "del", ns);
    }
    if (hostLink != null) {
      run(false, "ip", "link", "del", hostLink);
    }
  }

  @Test
  void aBoardCutOffIsDownTheMajorityKeepsTheMetadataAndHealingCatchesItUp() throws Exception {
    assumeTrue("root".equals(System.getProperty("user.name")), "network namespaces need root");
    assumeTrue(run(false, "ip", "netns", "list").startsWith("ok"), "ip netns is not available (iproute2)");
    boolean nft = run(false, "nft", "--version").startsWith("ok");
    createNetwork();

    long start = System.nanoTime();
    ring.addresses(this::address)
        .launcher(i -> List.of("ip", "netns", "exec", ns(i)))
        .seeds(address(1) + "," + address(2) + "," + address(3))
        .ports(CQL_PORT, HTTP_PORT, 0, 0, 0);
    ring.startAll(3);
    for (int i = 1; i <= 3; i++) {
      ring.awaitUp(i, 3);
    }
    System.out.printf("ring of 3 namespaces formed in %d ms%n", (System.nanoTime() - start) / 1_000_000);

    try (CqlSession session = CqlSession.builder()
        .addContactPoint(new InetSocketAddress(address(1), CQL_PORT))
        .withLocalDatacenter("datacenter1")
        // While board 3 is cut off, node 1's system.peers shows board 3's last schema version,
        // so the driver's wait for agreement after DDL runs out (10 s by default) each time.
        .withConfigLoader(com.datastax.oss.driver.api.core.config.DriverConfigLoader.programmaticBuilder()
            .withDuration(com.datastax.oss.driver.api.core.config.DefaultDriverOption.CONTROL_CONNECTION_AGREEMENT_TIMEOUT,
                Duration.ofSeconds(2)).build())
        .build()) {
      assertThat(session.getMetadata().getNodes()).hasSize(3);
      Node node1 = node(session, 1);
      Node node2 = node(session, 2);
      Node node3 = node(session, 3);
      session.execute(SimpleStatement.newInstance("CREATE KEYSPACE part WITH replication = "
          + "{'class': 'SimpleStrategy', 'replication_factor': 1}").setNode(node1).setTimeout(DDL_TIMEOUT));
      session.execute(SimpleStatement.newInstance("CREATE TABLE part.t (k text PRIMARY KEY, v int)").setNode(node1)
          .setTimeout(DDL_TIMEOUT));
      String ownedBy1 = keyOwnedBy(session, node1);
      String ownedBy3 = keyOwnedBy(session, node3);

      // Cut board 3 off from boards 1 and 2.
      long cut = System.nanoTime();
      if (nft) {
        Path rules = ring.dir().resolve("cut.nft");
        Files.writeString(rules, "table inet " + CUT_TABLE + " {\n"
            + "  chain in { type filter hook input priority 0; policy accept; ip saddr { "
            + address(1) + ", " + address(2) + " } drop; }\n"
            + "  chain out { type filter hook output priority 0; policy accept; ip daddr { "
            + address(1) + ", " + address(2) + " } drop; }\n"
            + "}\n");
        run(true, "ip", "netns", "exec", ns(3), "nft", "-f", rules.toString());
      } else {
        System.out.println("nft not installed (apt-get install nftables): cutting with ip link set down");
        run(true, "ip", "-n", ns(0), "link", "set", "v3", "down");
      }
      ring.await("node 3 is DN on nodes 1 and 2", DOWN_BOUND,
          () -> ring.status(1).contains("DN  " + address(3)) && ring.status(2).contains("DN  " + address(3)));
      long downMillis = (System.nanoTime() - cut) / 1_000_000;
      if (nft) {
        ring.await("nodes 1 and 2 are DN on node 3", DOWN_BOUND,
            () -> ring.status(3).contains("DN  " + address(1)) && ring.status(3).contains("DN  " + address(2)));
      }
      System.out.printf("DOWN seen %d ms after the cut (%s)%n", downMillis, nft ? "nftables" : "link down");

      // The majority (1, 2) keeps the metadata service; if board 3 led it, 1 and 2 elect a new leader first.
      long ddlStart = System.nanoTime();
      int attempts = ddlUntilAccepted(session, node1, "CREATE TABLE IF NOT EXISTS part.after_cut (k int PRIMARY KEY)");
      System.out.printf("DDL on the majority accepted %d ms after DOWN (%d attempts)%n",
          (System.nanoTime() - ddlStart) / 1_000_000, attempts);
      assertThat(session.execute(SimpleStatement.newInstance(
          "SELECT table_name FROM system_schema.tables WHERE keyspace_name = 'part' AND table_name = 'after_cut'")
          .setNode(node2)).all()).hasSize(1);
      session.execute(SimpleStatement.newInstance("UPDATE part.t SET v = 11 WHERE k = ?", ownedBy1).setNode(node2));

      if (nft) {
        // The minority: no DDL, with the reason; its own partitions are read and written.
        Throwable ddl = catchThrowable(() -> session.execute(SimpleStatement.newInstance(
            "CREATE TABLE part.minority (k int PRIMARY KEY)").setNode(node3).setTimeout(DDL_TIMEOUT)));
        assertThat(ddl).isNotNull();
        assertThat(ddl.getMessage()).contains("metadata service unavailable");
        System.out.println("DDL on the cut-off node: " + ddl.getMessage());
        session.execute(SimpleStatement.newInstance("UPDATE part.t SET v = 33 WHERE k = ?", ownedBy3).setNode(node3));
        assertThat(session.execute(SimpleStatement.newInstance("SELECT v FROM part.t WHERE k = ?", ownedBy3)
            .setNode(node3)).one().getInt(0)).isEqualTo(33);
        // A partition of a board it cannot reach: unavailable at once, not a timeout.
        assertThat(catchThrowable(() -> session.execute(SimpleStatement.newInstance(
            "SELECT v FROM part.t WHERE k = ?", ownedBy1).setNode(node3)))).isNotNull();
      }

      // Heal: UN everywhere, and board 3 catches up on what the majority decided.
      long healed = System.nanoTime();
      if (nft) {
        run(true, "ip", "netns", "exec", ns(3), "nft", "delete", "table", "inet", CUT_TABLE);
      } else {
        run(true, "ip", "-n", ns(0), "link", "set", "v3", "up");
      }
      for (int i = 1; i <= 3; i++) {
        int node = i;
        ring.await("node " + node + " shows 3 UN after healing", DOWN_BOUND,
            () -> countState(ring.status(node), "UN") == 3);
      }
      System.out.printf("3 UN on every node %d ms after healing%n", (System.nanoTime() - healed) / 1_000_000);
      ring.await("one schema version on all three nodes", DOWN_BOUND, () -> {
        Set<String> versions = new HashSet<>();
        for (Node n : List.of(node1, node2, node3)) {
          try {
            versions.add(session.execute(SimpleStatement.newInstance("SELECT schema_version FROM system.local")
                .setNode(n)).one().getUuid(0).toString());
          } catch (RuntimeException e) {
            return false;
          }
        }
        return versions.size() == 1;
      });
      assertThat(session.execute(SimpleStatement.newInstance(
          "SELECT table_name FROM system_schema.tables WHERE keyspace_name = 'part' AND table_name = 'after_cut'")
          .setNode(node3)).all()).hasSize(1);
      assertThat(ring.nodetool(3, "describecluster")).contains(address(1), address(2), address(3))
          .doesNotContain("UNREACHABLE");
      session.execute(SimpleStatement.newInstance("INSERT INTO part.after_cut (k) VALUES (1)").setNode(node3));
      assertThat(session.execute(SimpleStatement.newInstance("SELECT v FROM part.t WHERE k = ?", ownedBy1)
          .setNode(node3)).one().getInt(0)).isEqualTo(11);
      if (nft) {
        assertThat(session.execute(SimpleStatement.newInstance("SELECT v FROM part.t WHERE k = ?", ownedBy3)
            .setNode(node1)).one().getInt(0)).isEqualTo(33);
      }
    }
  }

  /** Runs DDL through {@code via} until the metadata service accepts it (bounded); returns the attempts. */
  private int ddlUntilAccepted(CqlSession session, Node via, String ddl) throws InterruptedException {
    long deadline = System.nanoTime() + FAILOVER_BOUND.toNanos();
    for (int attempt = 1; ; attempt++) {
      try {
        session.execute(SimpleStatement.newInstance(ddl).setNode(via).setTimeout(DDL_TIMEOUT));
        return attempt;
      } catch (RuntimeException e) {
        if (System.nanoTime() > deadline || !String.valueOf(e.getMessage()).contains("metadata service unavailable")) {
          throw new AssertionError("DDL on the majority failed (attempt " + attempt + ")", e);
        }
        System.out.println("DDL on the majority, attempt " + attempt + ": " + e.getMessage());
        Thread.sleep(500);
      }
    }
  }

  private static String keyOwnedBy(CqlSession session, Node owner) {
    for (int i = 0; i < 1000; i++) {
      String k = "k" + i;
      if (session.getMetadata().getTokenMap().get().getReplicas("part",
          ByteBuffer.wrap(k.getBytes(StandardCharsets.UTF_8))).contains(owner)) {
        return k;
      }
    }
    throw new AssertionError("no key owned by " + owner);
  }

  // ------------------------------------------------------------------ the network

  private String ns(int i) {
    return prefix + (i == 0 ? "-sw" : "-n" + i);
  }

  private String address(int i) {
    return subnet + i;
  }

  /** A bridge in its own namespace, one namespace per board on it, and a link to this namespace. */
  private void createNetwork() throws Exception {
    subnet = freeSubnet();
    for (int i = 0; i <= 3; i++) {
      run(true, "ip", "netns", "add", ns(i));
      namespaces.add(ns(i));
    }
    run(true, "ip", "-n", ns(0), "link", "add", "br0", "type", "bridge");
    run(true, "ip", "-n", ns(0), "link", "set", "br0", "up");
    for (int i = 1; i <= 3; i++) {
      run(true, "ip", "link", "add", "v" + i, "netns", ns(0), "type", "veth", "peer", "name", "eth0", "netns", ns(i));
      run(true, "ip", "-n", ns(0), "link", "set", "v" + i, "master", "br0", "up");
      run(true, "ip", "-n", ns(i), "addr", "add", address(i) + "/24", "dev", "eth0");
      run(true, "ip", "-n", ns(i), "link", "set", "eth0", "up");
      run(true, "ip", "-n", ns(i), "link", "set", "lo", "up");
    }
    hostLink = prefix + "h";
    run(true, "ip", "link", "add", hostLink, "type", "veth", "peer", "name", "vh", "netns", ns(0));
    run(true, "ip", "-n", ns(0), "link", "set", "vh", "master", "br0", "up");
    run(true, "ip", "addr", "add", subnet + "100/24", "dev", hostLink);
    run(true, "ip", "link", "set", hostLink, "up");
  }

  /** "10.A.B." for a /24 that no address or route of this namespace uses. */
  private static String freeSubnet() throws Exception {
    String used = run(false, "ip", "-4", "addr") + run(false, "ip", "-4", "route");
    Random random = new Random();
    for (int attempt = 0; attempt < 100; attempt++) {
      String s = "10." + (200 + random.nextInt(50)) + "." + random.nextInt(256) + ".";
      if (!used.contains(s)) {
        return s;
      }
    }
    throw new IOException("no free 10.x.y.0/24 subnet");
  }

  /** Runs a command; "ok\n" + output, or "failed ..." (thrown when {@code check}). */
  private static String run(boolean check, String... command) throws Exception {
    Process p;
    try {
      p = new ProcessBuilder(command).redirectErrorStream(true).start();
    } catch (IOException e) {
      if (check) {
        throw e;
      }
      return "failed: " + e.getMessage();
    }
    boolean done = p.waitFor(30, TimeUnit.SECONDS);
    if (!done) {
      p.destroyForcibly().waitFor();
    }
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (done && p.exitValue() == 0) {
      return "ok\n" + out;
    }
    if (check) {
      throw new IOException(String.join(" ", command) + " failed: " + out);
    }
    return "failed: " + out;
  }

  // ------------------------------------------------------------------ the nodes

  private static Node node(CqlSession session, int i) {
    return session.getMetadata().getNodes().values().stream()
        .filter(n -> n.getBroadcastRpcAddress().get().getAddress().getHostAddress().endsWith("." + i))
        .findFirst().orElseThrow();
  }
}
