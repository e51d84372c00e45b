package io.cassette.coordinator.ring.paxos;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

/**
 * The durable side of {@link PaxosStore}: {@code <dir>/paxos-<n>.log}, records of a partition's
 * whole Paxos state ({@code length:i32 crc32c:i32 state}), the last record of a partition
 * winning. A promise or an acceptance is written and fsynced before the replica answers (a
 * replica that forgets a promise after kill -9 could let two values be chosen). A torn last
 * record is skipped. When the file grows past a bound the live states are written to the next
 * file, which replaces it.
 */
final class PaxosLog implements AutoCloseable {
  /** The fault lab's slow disk: each fsync takes this much longer ({@code -Dcassette.test_fault.slow_fsync_ms}). */
  static final long SLOW_FSYNC_MS = Long.getLong("cassette.test_fault.slow_fsync_ms", 0);
  private final Path dir;
  private FileChannel channel;
  private long generation;
  private long size;

  PaxosLog(Path dir) {
    this.dir = dir;
  }

  /** Reads every record in order (oldest file first) and opens the newest file for appending. */
  synchronized void open(Consumer<byte[]> records) {
    try {
      Files.createDirectories(dir);
      List<Path> files = new ArrayList<>();
      try (Stream<Path> s = Files.list(dir)) {
        s.filter(p -> p.getFileName().toString().matches("paxos-\\d+\\.log")).forEach(files::add);
      }
      files.sort((a, b) -> Long.compare(generation(a), generation(b)));
      for (Path f : files) {
        replay(f, records);
        generation = Math.max(generation, generation(f));
      }
      if (files.isEmpty()) {
        generation = 1;
      }
      channel = FileChannel.open(file(generation), StandardOpenOption.CREATE, StandardOpenOption.WRITE,
          StandardOpenOption.APPEND);
      size = channel.size();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open the paxos log in " + dir, e);
    }
  }

  /** Appends one record and fsyncs it. */
  synchronized void append(byte[] body) {
    try {
      channel.write(frame(body));
      channel.force(false);
      if (SLOW_FSYNC_MS > 0) {
        Thread.sleep(SLOW_FSYNC_MS);
      }
      size += body.length + 8;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the paxos log in " + dir, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  synchronized long size() {
    return size;
  }

  /** Replaces the log with these records (the live states): a new file, fsynced, then the old removed. */
  synchronized void rewrite(List<byte[]> bodies) {
    try {
      long next = generation + 1;
      Path tmp = dir.resolve("paxos-" + next + ".log.tmp");
      try (FileChannel out = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
          StandardOpenOption.TRUNCATE_EXISTING)) {
        long written = 0;
        for (byte[] b : bodies) {
          written += out.write(frame(b));
        }
        out.force(true);
        size = written;
      }
      Files.move(tmp, file(next));
      channel.close();
      Files.deleteIfExists(file(generation));
      generation = next;
      channel = FileChannel.open(file(generation), StandardOpenOption.WRITE, StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot rewrite the paxos log in " + dir, e);
    }
  }

  @Override
  public synchronized void close() {
    try {
      if (channel != null) {
        channel.close();
      }
    } catch (IOException ignored) {
      // closing
    }
  }

  private Path file(long gen) {
    return dir.resolve("paxos-" + gen + ".log");
  }

  private static long generation(Path p) {
    String n = p.getFileName().toString();
    return Long.parseLong(n.substring(6, n.length() - 4));
  }

  private static ByteBuffer frame(byte[] body) {
    CRC32C crc = new CRC32C();
    crc.update(body);
    ByteBuffer b = ByteBuffer.allocate(body.length + 8);
    b.putInt(body.length).putInt((int) crc.getValue()).put(body).flip();
    return b;
  }

  private static void replay(Path f, Consumer<byte[]> records) throws IOException {
    byte[] all = Files.readAllBytes(f);
    ByteBuffer in = ByteBuffer.wrap(all);
    while (in.remaining() >= 8) {
      int len = in.getInt();
      int crc = in.getInt();
      if (len < 0 || len > in.remaining()) {
        return; // torn tail
      }
      byte[] body = new byte[len];
      in.get(body);
      CRC32C c = new CRC32C();
      c.update(body);
      if ((int) c.getValue() != crc) {
        return; // torn or damaged tail: nothing after it was acknowledged
      }
      records.accept(body);
    }
  }
}
