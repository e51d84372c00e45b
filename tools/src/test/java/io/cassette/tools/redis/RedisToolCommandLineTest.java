package io.cassette.tools.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** What redis-import and redis-export answer to a bad command line: exit 2, the reason, usage. */
class RedisToolCommandLineTest {
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int importWith(String... args) {
    return RedisImportMain.run(args, new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true));
  }

  private int exportWith(String... args) {
    return RedisExportMain.run(args, new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true));
  }

  private String said() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void anOptionWithoutItsValueIsNamed() {
    assertThat(importWith("dump.rdb", "--pipeline")).isEqualTo(2);
    assertThat(said()).startsWith("redis-import: --pipeline needs a value").contains("usage: cassette redis-import");
  }

  @Test
  void aValueThatIsNotANumberIsRefused() {
    assertThat(exportWith("out.rdb", "--db", "one")).isEqualTo(2);
    assertThat(said()).startsWith("redis-export: For input string: \"one\"");
  }

  @Test
  void theFileIsRequiredAndAlone() {
    assertThat(exportWith("--count", "10")).isEqualTo(2);
    assertThat(said()).startsWith("redis-export: FILE is missing");
    err.reset();
    assertThat(importWith("a.rdb", "b.rdb", "-p", "1")).isEqualTo(2);
    assertThat(said()).startsWith("redis-import: unexpected arguments [a.rdb, b.rdb]");
  }
}
