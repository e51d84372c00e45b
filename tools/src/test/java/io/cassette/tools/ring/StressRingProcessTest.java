package io.cassette.tools.ring;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.tools.stress.StressMain;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 16's "Done when": {@code bin/cassette stress -node} against a ring of three real
 * processes, as bench/ring runs it: the predefined keyspace at RF=3, write then read at QUORUM
 * through all three nodes, no errors, every key read back (the read validates each row).
 * Slow (a real-process ring): {@code -Pslow}.
 */
@Tag("slow")
class StressRingProcessTest {
  @RegisterExtension
  final RingProcesses ring = new RingProcesses(3);

  @Test
  @Timeout(value = 600, unit = TimeUnit.SECONDS)
  void stressWritesAndReadsAtQuorumThroughEveryNode() throws Exception {
    ring.pickPorts(false);
    ring.startAll(3);
    ring.awaitUp(1, 3);
    String nodes = " -node 127.0.0.1,127.0.0.2,127.0.0.3 -port native=" + ring.cqlPort + " -log no-settings"
        + " -rate threads=8";
    String write = stress("write n=3000 no-warmup cl=QUORUM -schema replication(factor=3)" + nodes);
    assertThat(write).contains("Total partitions          :      3,000 [WRITE: 3,000]");
    String read = stress("read n=3000 no-warmup cl=QUORUM -pop seq=1..3000" + nodes);
    assertThat(read).contains("Total partitions          :      3,000 [READ: 3,000]");
  }

  /** The stress tool in this JVM (what bin/cassette stress runs): exit 0, a summary, no errors. */
  private String stress(String commandLine) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = StressMain.run(commandLine.split(" "), new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    String text = out.toString(StandardCharsets.UTF_8);
    assertThat(status).as("exit status of '%s'\nstdout:\n%s\nstderr:\n%s\n%s", commandLine, text, err,
        ring.logTails()).isZero();
    assertThat(text).contains("Results:").endsWith("END\n").contains("Total errors              :          0");
    return text;
  }
}
