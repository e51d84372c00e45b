package io.cassette.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a writing child JVM with SIGKILL at random moments and checks that every acknowledged
 * write survives, in both modes (periodic mode hands each record to the OS before it is
 * acknowledged: only a power loss, which this test cannot cause, may take the unsynced period),
 * and every surviving row is intact.
 */
class CrashTest {
  @TempDir
  Path dir;

  record Ack(int thread, long seq, long nanos) {}

  @Test
  void batchModeKeepsEveryAcknowledgedWrite() throws Exception {
    run("BATCH", 100, 2);
  }

  @Test
  void periodicModeKeepsEveryAcknowledgedWriteAcrossAProcessKill() throws Exception {
    run("PERIODIC", 200, 2);
  }

  @Test
  @Tag("slow")
  void manyKillsInBothModes() throws Exception {
    run("BATCH", 100, 15);
    run("PERIODIC", 50, 15);
  }

  /** Where the key is in the commit log and what the table believes it has flushed. */
  private String diagnose(LocalTable t, byte[] key) throws Exception {
    StringBuilder sb = new StringBuilder("flushedPosition " + t.flushedPosition + "\nsstables:");
    DecoratedKey dk = DecoratedKey.of(key);
    for (var s : t.view.get().sstables()) {
      sb.append("\n  ").append(s.descriptor()).append(" upper ").append(s.stats().commitLogUpperBound())
          .append(" partitions ").append(s.stats().partitionCount()).append(" mightContain ").append(s.mightContain(dk))
          .append(" found ").append(s.partition(dk) != null)
          .append(" first ").append(s.stats().firstKey()).append(" last ").append(s.stats().lastKey());
    }
    boolean inScan = false;
    try (var it = t.scan(KeyRange.ALL, ReadQuery.all(0))) {
      while (it.hasNext()) {
        if (java.util.Arrays.equals(it.next().key().key(), key)) {
          inScan = true;
        }
      }
    }
    sb.append("\nin scan: ").append(inScan).append(", token ").append(dk.token());
    Path copy = Path.of("/tmp/crashfail-" + System.nanoTime());
    try (var all = java.nio.file.Files.walk(dir)) {
      for (Path f : (Iterable<Path>) all::iterator) {
        Path target = copy.resolve(dir.relativize(f).toString());
        if (java.nio.file.Files.isDirectory(f)) {
          java.nio.file.Files.createDirectories(target);
        } else {
          java.nio.file.Files.copy(f, target);
        }
      }
    }
    sb.append("\ncopied to ").append(copy);
    sb.append("\nsegments on disk:");
    try (var files = java.nio.file.Files.list(dir.resolve("commitlog"))) {
      for (Path f : (Iterable<Path>) files.sorted()::iterator) {
        sb.append("\n  ").append(f.getFileName()).append(" ").append(java.nio.file.Files.size(f));
        long id = io.cassette.storage.commitlog.CommitLogDescriptor.segmentId(f.getFileName().toString());
        byte[] bytes = java.nio.file.Files.readAllBytes(f);
        String hay = new String(bytes, StandardCharsets.ISO_8859_1);
        int at = hay.indexOf(new String(key, StandardCharsets.ISO_8859_1));
        if (at >= 0) {
          sb.append(" contains key at byte ").append(at);
        }
      }
    }
    return sb.toString();
  }

  private void run(String mode, long periodMs, int kills) throws Exception {
    Random random = new Random();
    long firstSeq = 1;
    List<Ack> allAcks = new ArrayList<>();
    for (int round = 0; round < kills; round++) {
      ConcurrentLinkedQueue<Ack> acks = new ConcurrentLinkedQueue<>();
      String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
      Process p = new ProcessBuilder(java, "-Xmx64m", "-cp", System.getProperty("java.class.path"),
          CrashChild.class.getName(), dir.toString(), mode, "" + periodMs, "" + firstSeq)
          .redirectError(ProcessBuilder.Redirect.appendTo(dir.resolve("child-stderr.log").toFile())).start();
      Thread reader = new Thread(() -> {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.US_ASCII))) {
          String line;
          while ((line = in.readLine()) != null) {
            if (line.startsWith("ACK ")) {
              String[] f = line.split(" ");
              acks.add(new Ack(Integer.parseInt(f[1]), Long.parseLong(f[2]), System.nanoTime()));
            }
          }
        } catch (Exception e) {
          // the child died
        }
      });
      reader.start();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      long wantAcks = 200 + random.nextInt(3000);
      while (acks.size() < wantAcks && System.nanoTime() < deadline && p.isAlive()) {
        Thread.sleep(5);
      }
      Thread.sleep(random.nextInt(200));
      assertThat(p.isAlive()).as("child alive before the kill").isTrue();
      long killNanos = System.nanoTime();
      p.destroyForcibly(); // SIGKILL
      p.waitFor(10, TimeUnit.SECONDS);
      reader.join(5000);
      assertThat(acks).as("round %d acknowledged writes", round).isNotEmpty();
      allAcks.addAll(acks);
      firstSeq += 1_000_000;

      try (Engine e = Engine.open(EngineOptions.defaults(dir))) {
        Table t = e.table("ks", "crash").orElseThrow();
        long now = System.currentTimeMillis() / 1000;
        for (Ack a : allAcks) {
          PartitionView v = t.read(CrashChild.key(a.thread(), a.seq()), ReadQuery.all(now));
          if (v.staticRow() == null) {
            org.junit.jupiter.api.Assertions.fail(mode + " mode lost acknowledged write " + a.thread() + "/" + a.seq()
                + " acked " + (killNanos - a.nanos()) / 1_000_000 + " ms before the kill\n"
                + diagnose((LocalTable) t, CrashChild.key(a.thread(), a.seq())));
          }
          assertThat(v.staticRow().cell("v").value()).as("intact value").isEqualTo(CrashChild.value(a.thread(), a.seq()));
        }
      }
      System.out.println(mode + " round " + round + ": " + acks.size() + " acked, none lost");
    }
  }
}
