package io.cassette.storage;

import java.io.PrintStream;
import java.io.FileOutputStream;
import java.io.FileDescriptor;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The child process of {@link CrashTest}: writes rows from several threads as fast as it
 * can and prints "ACK thread seq" once each write is acknowledged, until it is killed.
 * Arguments: data directory, BATCH|PERIODIC, sync period in ms, first sequence number.
 */
public final class CrashChild {
  static final UUID TABLE_ID = UUID.fromString("00000000-0000-0000-0000-00000000c0de");
  static final int THREADS = 4;

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    CommitLogSync sync = CommitLogSync.valueOf(args[1]);
    long periodMs = Long.parseLong(args[2]);
    long firstSeq = Long.parseLong(args[3]);
    PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.US_ASCII);
    EngineOptions d = EngineOptions.defaults(dir);
    // small memtables and segments so that flushes, compactions and segment deletions
    // are in progress when the kill lands
    Engine engine = Engine.open(new EngineOptions(d.dataDirectory(), d.commitLogDirectory(), sync,
        Duration.ofMillis(periodMs), 256 * 1024, 1 << 20, 512 * 1024, 0, 1));
    Table table = engine.createTable(new TableSpec("ks", "crash", TABLE_ID,
        Map.of("class", "LZ4Compressor", "chunk_length_in_kb", "4"),
        Map.of("class", "SizeTieredCompactionStrategy", "min_threshold", "2"), 864000, 0.01, 0));
    out.println("READY");
    out.flush();
    for (int t = 0; t < THREADS; t++) {
      int thread = t;
      Thread w = new Thread(() -> {
        for (long seq = firstSeq; ; seq++) {
          table.apply(update(thread, seq));
          synchronized (out) {
            out.println("ACK " + thread + " " + seq);
            out.flush();
          }
        }
      });
      w.start();
    }
    Thread.sleep(Long.MAX_VALUE);
  }

  static byte[] key(int thread, long seq) {
    return ("t" + thread + "-" + seq).getBytes(StandardCharsets.US_ASCII);
  }

  static byte[] value(int thread, long seq) {
    return ("value-" + thread + "-" + seq + "-" + "x".repeat((int) (seq % 50))).getBytes(StandardCharsets.US_ASCII);
  }

  static PartitionUpdate update(int thread, long seq) {
    return PartitionUpdate.builder("ks", "crash", key(thread, seq))
        .row(new Row(Bytes.EMPTY, LivenessInfo.of(seq), DeletionTime.LIVE,
            List.of(Cell.live("v", value(thread, seq), seq))))
        .build();
  }
}
