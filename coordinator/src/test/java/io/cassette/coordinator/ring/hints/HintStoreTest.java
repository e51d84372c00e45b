package io.cassette.coordinator.ring.hints;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The hint files: survive a restart, skip a torn tail, stay within their bounds. */
class HintStoreTest {
  static final UUID A = new UUID(0, 1);
  static final UUID B = new UUID(0, 2);

  @TempDir
  Path dir;
  final AtomicLong clock = new AtomicLong(1_700_000_000_000L);

  HintStore open(long maxFile, long maxPerHost) {
    return new HintStore(dir, maxFile, maxPerHost, clock::get);
  }

  static byte[] payload(int i) {
    return ("mutation-" + i).getBytes(StandardCharsets.UTF_8);
  }

  /** Every whole hint of {@code host}, in order, as the payloads appended (time stripped). */
  static List<String> read(HintStore store, UUID host) throws IOException {
    List<String> out = new ArrayList<>();
    for (HintsFile f : store.closeForDelivery(host)) {
      try (RecordReader in = new RecordReader(f.path(), RecordFile.HINTS_MAGIC, 0)) {
        byte[] r;
        while ((r = in.next()) != null) {
          out.add(new String(Arrays.copyOfRange(r, 8, r.length), StandardCharsets.UTF_8));
        }
      }
    }
    return out;
  }

  @Test
  void hintsSurviveARestartAndNewOnesGoToANewFile() throws IOException {
    HintStore s = open(1 << 20, 0);
    for (int i = 0; i < 3; i++) {
      assertThat(s.append(A, payload(i))).isTrue();
      clock.addAndGet(1000);
    }
    assertThat(s.append(B, payload(9))).isTrue();
    s.close();

    HintStore again = open(1 << 20, 0);
    assertThat(again.hosts()).containsExactlyInAnyOrder(A, B);
    assertThat(again.pending()).extracting(PendingHints::totalFiles).containsOnly(1);
    again.append(A, payload(3));
    PendingHints a = again.pending().stream().filter(p -> p.hostId().equals(A)).findFirst().orElseThrow();
    assertThat(a.totalFiles()).isEqualTo(2);
    assertThat(a.newestMillis()).isGreaterThan(a.oldestMillis());
    assertThat(read(again, A)).containsExactly("mutation-0", "mutation-1", "mutation-2", "mutation-3");
    assertThat(read(again, B)).containsExactly("mutation-9");
    again.close();
  }

  @Test
  void aTornTailRecordIsSkippedNeverHalfReturned() throws IOException {
    HintStore s = open(1 << 20, 0);
    for (int i = 0; i < 3; i++) {
      s.append(A, payload(i));
    }
    s.close();
    Path file;
    try (var files = Files.list(dir)) {
      file = files.filter(p -> p.toString().endsWith(".hints")).findFirst().orElseThrow();
    }
    long size = Files.size(file);
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
      raf.setLength(size - 5); // a crash in the middle of the last append
    }
    HintStore again = open(1 << 20, 0);
    assertThat(read(again, A)).containsExactly("mutation-0", "mutation-1");
    try (RecordReader in = new RecordReader(file, RecordFile.HINTS_MAGIC, 0)) {
      while (in.next() != null) {
        // read to the end
      }
      assertThat(in.problem()).contains("ends inside a record");
    }
    // A flipped bit inside the second record: only the first comes back.
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
      long second = RecordFile.HEADER_BYTES + RecordFile.RECORD_OVERHEAD + 8 + payload(0).length;
      raf.seek(second + 8 + 10);
      int b = raf.read();
      raf.seek(second + 8 + 10);
      raf.write(b ^ 0x40);
    }
    assertThat(read(again, A)).containsExactly("mutation-0");
    again.close();
  }

  @Test
  void filesRollAtTheirSizeAndAHostStopsAtItsBound() throws IOException {
    int record = 8 + payload(0).length + RecordFile.RECORD_OVERHEAD;
    // Three records per file; at most ten records' worth of bytes per host.
    long maxFile = RecordFile.HEADER_BYTES + 3L * record;
    long perHost = 4L * RecordFile.HEADER_BYTES + 10L * record;
    HintStore s = open(maxFile, perHost);
    int stored = 0;
    for (int i = 0; i < 20; i++) {
      if (s.append(A, payload(i % 10))) {
        stored++;
      }
    }
    assertThat(stored).isEqualTo(10);
    assertThat(s.bytes(A)).isLessThanOrEqualTo(perHost);
    assertThat(s.pending().get(0).totalFiles()).isEqualTo(4);
    assertThat(s.append(B, payload(1))).as("another host has its own bound").isTrue();
    List<HintsFile> files = s.closeForDelivery(A);
    s.delete(files.get(0));
    assertThat(s.append(A, payload(0))).as("room again after a delivered file is deleted").isTrue();
    assertThat(s.truncate(A)).isGreaterThan(0);
    assertThat(s.hosts()).containsExactly(B);
    s.close();
    try (var left = Files.list(dir)) {
      assertThat(left.filter(p -> p.getFileName().toString().startsWith(A.toString())).count()).isZero();
    }
  }
}
