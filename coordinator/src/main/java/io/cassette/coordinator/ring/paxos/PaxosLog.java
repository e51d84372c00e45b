package io.cassette.coordinator.ring.paxos;

import io.cassette.coordinator.ring.GroupSync;
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
 * winning. A promise or an acceptance is written to the file before the replica answers, so a
 * replica killed with kill -9 cannot forget it (two values could be chosen otherwise). When it
 * reaches the disk follows the commit log's mode, as Cassandra's {@code system.paxos} (written
 * through its commit log) does:
 *
 * <ul>
 *   <li>{@code syncPeriodMillis} 0 (commitlog_sync batch/group): fsynced before {@link #append}
 *       returns; appenders that arrive while an fsync runs share the next one (group commit), so
 *       a node's Paxos answers never queue one fsync each behind a single lock;
 *   <li>{@code syncPeriodMillis} &gt; 0 (periodic): fsynced by a background thread every period,
 *       never on a request's path (DESIGN.md: fsync never blocks a request in periodic mode); a
 *       power loss may forget the last period's promises, as Cassandra's periodic mode may.
 * </ul>
 *
 * A torn last record is skipped. When the file grows past a bound the live states are written
 * to the next file, which replaces it.
 */
final class PaxosLog implements AutoCloseable {
  /** The fault lab's slow disk: each fsync takes this much longer ({@code -Dcassette.test_fault.slow_fsync_ms}). */
  static final long SLOW_FSYNC_MS = Long.getLong("cassette.test_fault.slow_fsync_ms", 0);
  private final Path dir;
  /** 0: fsync before an append returns (group commit); else the background fsync's period. */
  private final long syncPeriodMillis;
  private FileChannel channel;
  private long generation;
  private long size;
  /** Records appended since open (guarded by this). */
  private long appended;
  /** Appenders that wait for an fsync share one; appends go on meanwhile. */
  private final GroupSync groupSync = new GroupSync(this, this::pending);
  private Thread syncer;
  /** Set by close; the syncer waits on it (never interrupted: an interrupt closes a FileChannel). */
  private boolean closing;
  private final Object syncerSignal = new Object();

  PaxosLog(Path dir, long syncPeriodMillis) {
    if (syncPeriodMillis < 0) {
      throw new IllegalArgumentException("sync period: " + syncPeriodMillis + " ms (expected: >= 0)");
    }
    this.dir = dir;
    this.syncPeriodMillis = syncPeriodMillis;
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
    if (syncPeriodMillis > 0 && syncer == null) {
      syncer = new Thread(this::syncPeriodically, "paxos-log-sync");
      syncer.setDaemon(true);
      syncer.start();
    }
  }

  /**
   * Appends one record: written to the file when this returns, and fsynced too when the log has
   * no sync period. Thread-safe; concurrent appenders share fsyncs.
   */
  void append(byte[] body) {
    long mine;
    synchronized (this) {
      try {
        channel.write(frame(body));
      } catch (IOException e) {
        throw new UncheckedIOException("cannot write the paxos log in " + dir, e);
      }
      size += body.length + 8;
      mine = ++appended;
    }
    if (syncPeriodMillis == 0) {
      groupSync.syncThrough(mine);
    }
  }

  /** What the next fsync covers (called under this lock). */
  private GroupSync.Pending pending() {
    FileChannel ch = channel;
    return new GroupSync.Pending(appended, () -> {
      try {
        ch.force(false);
        if (SLOW_FSYNC_MS > 0) {
          Thread.sleep(SLOW_FSYNC_MS);
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot sync the paxos log in " + dir, e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
  }

  private void syncPeriodically() {
    while (true) {
      synchronized (syncerSignal) {
        long until = System.nanoTime() + syncPeriodMillis * 1_000_000L;
        for (long left = syncPeriodMillis; !closing && left > 0; left = (until - System.nanoTime()) / 1_000_000L) {
          try {
            syncerSignal.wait(left);
          } catch (InterruptedException e) {
            return;
          }
        }
        if (closing) {
          return;
        }
      }
      long last;
      synchronized (this) {
        last = appended;
        if (channel == null || !channel.isOpen()) {
          return;
        }
      }
      try {
        groupSync.syncThrough(last);
      } catch (UncheckedIOException e) {
        // a closed channel at shutdown, or a failing disk: the next append reports it
      }
    }
  }

  synchronized long size() {
    return size;
  }

  /** Replaces the log with these records (the live states): a new file, fsynced, then the old removed. */
  void rewrite(List<byte[]> bodies) {
    groupSync.exclusively(() -> rewriteLocked(bodies)); // the new file holds every live state, fsynced
  }

  private void rewriteLocked(List<byte[]> bodies) {
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

  /** Stops the periodic fsync, fsyncs what was appended and closes the file. */
  @Override
  public void close() {
    Thread t = syncer;
    if (t != null) {
      synchronized (syncerSignal) {
        closing = true;
        syncerSignal.notifyAll();
      }
      try {
        t.join(10_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    groupSync.exclusively(() -> {
      try {
        if (channel != null && channel.isOpen()) {
          channel.force(false);
          channel.close();
        }
      } catch (IOException ignored) {
        // closing
      }
    });
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
