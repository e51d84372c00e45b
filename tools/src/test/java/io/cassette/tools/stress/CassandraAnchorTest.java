package io.cassette.tools.stress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same commands against a real Apache Cassandra 5.0.4 (the shared anchor): slow (about a
 * minute to start it), so tagged "slow" and run with -Pslow. Skipped without the anchor.
 */
@Tag("slow")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CassandraAnchorTest {
  private static final Path ANCHOR = Path.of("../../shared/anchors/cassandra").toAbsolutePath().normalize();
  private String dataDir;
  private int port;

  @BeforeAll
  void startCassandra() throws Exception {
    assumeTrue(Files.isExecutable(ANCHOR.resolve("start-cassandra.sh")), "no Cassandra anchor at " + ANCHOR);
    port = freePort();
    ProcessBuilder pb = new ProcessBuilder("bash", ANCHOR.resolve("start-cassandra.sh").toString())
        .redirectErrorStream(true);
    pb.environment().put("PORT", Integer.toString(port));
    pb.environment().put("STORAGE_PORT", Integer.toString(freePort()));
    pb.environment().put("JMX_PORT", "off");
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assumeTrue(p.waitFor(300, TimeUnit.SECONDS) && p.exitValue() == 0, "Cassandra did not start:\n" + out);
    Matcher m = Pattern.compile("DATA_DIR=(\\S+)").matcher(out);
    assumeTrue(m.find(), "no DATA_DIR in " + out);
    dataDir = m.group(1);
  }

  @AfterAll
  void stopCassandra() throws Exception {
    if (dataDir != null) {
      new ProcessBuilder("bash", ANCHOR.resolve("stop-cassandra.sh").toString(), dataDir)
          .inheritIO().start().waitFor(90, TimeUnit.SECONDS);
    }
  }

  @Test
  void predefinedCommandsRunUnchanged(@TempDir Path dir) throws Exception {
    String node = " -node 127.0.0.1 -port native=" + port + " -log no-settings";
    assertThat(StressRunAssertions.runClean("write n=2000 -rate threads=8" + node))
        .contains("Total partitions          :      2,000 [WRITE: 2,000]");
    assertThat(StressRunAssertions.runClean("read n=2000 -pop seq=1..2000 -rate threads=8" + node))
        .contains("[READ: 2,000]");
    Path graph = dir.resolve("g.html");
    assertThat(StressRunAssertions.runClean("mixed ratio(write=1,read=3) n=1000 -pop seq=1..2000 -rate threads=4"
        + node + " hdrfile=" + dir.resolve("m.hdr") + " -graph file=" + graph + " revision=anchor"))
        .contains("READ,").contains("WRITE,");
    assertThat(Files.readString(graph)).contains("\"revision\":\"anchor\"");
    assertThat(Files.readString(dir.resolve("m.hdr"))).contains("Tag=READ-st");
    StressRunAssertions.runClean("counter_write n=500 -rate threads=4 fixed=400/s" + node);
    StressRunAssertions.runClean("counter_read n=500 -pop seq=1..500 -rate threads=4" + node);
  }

  @Test
  void userProfile(@TempDir Path dir) throws IOException {
    Path profile = dir.resolve("blog.yaml");
    Files.writeString(profile, UserProfileTest.PROFILE);
    String node = " -node 127.0.0.1 -port native=" + port + " -log no-settings";
    assertThat(StressRunAssertions.runClean("user profile=" + profile + " ops(insert=1,singlepost=1) n=500"
        + " -pop seq=1..100 -rate threads=4" + node)).contains("insert,").contains("singlepost,");
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
