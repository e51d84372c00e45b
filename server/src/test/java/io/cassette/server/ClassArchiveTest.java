package io.cassette.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The archive's name and the dump's failure path; the whole cycle is dist's LauncherIT. */
class ClassArchiveTest {
  @TempDir Path dir;

  @Test
  void theArchiveNamesItsOwnLengthSoTheLauncherCanRefuseAShortOne() {
    assertThat(ClassArchive.sized(dir.resolve("cassette-123.jsa"), 17_367_040L).getFileName().toString())
        .isEqualTo("cassette-123-17367040.jsa");
  }

  /**
   * This test JVM was not started with -XX:+RecordDynamicDumpInfo, so the JDK refuses the
   * dump: the node must carry on stopping, with no archive and no temporary file left, and
   * the archive already there untouched.
   */
  @Test
  void aDumpTheJvmRefusesLeavesNothingAndThrowsNothing() throws Exception {
    Path older = Files.writeString(dir.resolve("cassette-9-3.jsa"), "old");
    ClassArchive.make(dir.resolve("cassette-123.jsa"));
    try (var files = Files.list(dir)) {
      assertThat(files.toList()).containsExactly(older);
    }
  }
}
