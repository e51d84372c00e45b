package io.cassette.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compaction yields the core to requests: on Linux its threads run at a raised nice value, as
 * the kernel sees it (/proc), so a one-core board serves requests first.
 */
class CompactionPriorityTest {
  @TempDir
  Path dir;

  @Test
  void compactionThreadsRunAtALowerCpuPriorityThanRequests() throws Exception {
    assumeThat(Path.of("/proc/thread-self")).exists();
    int ownNice = nice(Path.of("/proc/thread-self"));
    try (Engine e = Engine.open(EngineOptions.defaults(dir))) {
      Table t = e.createTable(CompactionTest.spec(Map.of("class", "SizeTieredCompactionStrategy"), 864000));
      for (int f = 0; f < 4; f++) {
        for (int i = 0; i < 100; i++) {
          t.apply(CompactionTest.put("k" + (f * 100 + i), 1));
        }
        t.flush();
      }
      CompactionTest.awaitSSTables(t, 1);
      List<Integer> compactionNices = new ArrayList<>();
      try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
        for (Path task : (Iterable<Path>) tasks::iterator) {
          if (Files.readString(task.resolve("comm")).startsWith("compaction-")) {
            compactionNices.add(nice(task));
          }
        }
      }
      assertThat(compactionNices).isNotEmpty()
          .allSatisfy(n -> assertThat(n).isGreaterThanOrEqualTo(Math.min(19, ownNice + CompactionScheduler.COMPACTION_NICE)));
    }
  }

  /** Field 19 of /proc/.../stat, counted after the command name (which may hold spaces). */
  private static int nice(Path task) throws IOException {
    String stat = Files.readString(task.resolve("stat"));
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return Integer.parseInt(fields[16]);
  }
}
