package io.cassette.tools.cqlsh;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The command line and what a user sees when the node is not there. */
class CqlshMainTest {
  record Run(int exit, String out, String err) {}

  static Run run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit = CqlshMain.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void hostAndPortArePositionalAndOptionsAreParsed() {
    CqlshMain.Options o = CqlshMain.parse(new String[] {"10.0.0.5", "9043", "-k", "ks", "-e", "SELECT 1"});
    assertThat(o.host()).isEqualTo("10.0.0.5");
    assertThat(o.port()).isEqualTo(9043);
    assertThat(o.keyspace()).isEqualTo("ks");
    assertThat(o.execute()).isEqualTo("SELECT 1");
    assertThat(run("--bogus").err()).startsWith("cqlsh: error: no such option: --bogus");
    assertThat(run("--help").out()).contains("Usage: cassette cqlsh [options] [host [port]]");
  }

  @Test
  void nodeDownIsOneConnectionErrorLineAndExitOne() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    Run r = run("127.0.0.1", Integer.toString(port), "--connect-timeout", "2", "-e", "SELECT 1");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).isEqualTo("Connection error: ('Unable to connect to any servers', {'127.0.0.1:"
        + port + "': ConnectionRefusedError(111, \"Tried connecting to [('127.0.0.1', " + port
        + ")]. Last error: Connection refused\")})\n");
  }
}
