package io.cassette.resp.ring;

import io.cassette.coordinator.Fence;
import io.cassette.coordinator.FenceGuard;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The replica's side of the executors' leases ({@link ExecutorLeases}): per lease (a replica
 * list of the {@code redis} keyspace) the highest epoch promised, who holds it and until when
 * (wall clock). Like a Paxos acceptor: a grant of epoch e is given if e is newer than the
 * promise (or the same epoch to the same holder: a renewal); thereafter writes fenced with an
 * older epoch are refused ({@link #apply}). A new holder is granted a lease only once the
 * current holder's has ended (by this replica's clock). The promised epochs are written to a small file and
 * fsynced before a grant is answered, so a replica that restarts never accepts an epoch it
 * refused before; lease ends are not (a renewal each second would fsync each second): after a
 * restart every lease it had promised is taken to run until start + {@link ExecutorLeases#leaseMillis}.
 * Thread-safe: grants and raised promises hold the write lock, fenced writes the read lock while
 * they check and apply, so a newer promise waits for writes being applied under an older one.
 */
final class LeasePromises implements FenceGuard {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(LeasePromises.class);

  /**
   * A promise: the epoch, its holder (null: not known since a restart), its lease's end, and the
   * latest end granted to any holder before it (a contender that lost must not hide it).
   */
  record Promise(long epoch, InetAddress holder, long endMillis, long previousEndMillis) {}

  /** A grant's answer: granted or not, the epoch promised now, the end of another holder's lease. */
  record Answer(boolean granted, long promised, long otherEndMillis) {
    byte[] encode() {
      return ByteBuffer.allocate(17).put((byte) (granted ? 1 : 0)).putLong(promised).putLong(otherEndMillis).array();
    }

    static Answer decode(byte[] b) {
      ByteBuffer in = ByteBuffer.wrap(b);
      return new Answer(in.get() == 1, in.getLong(), in.getLong());
    }
  }

  private final Map<String, Promise> promises = new ConcurrentHashMap<>();
  private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
  private final Path file;
  /** Until when a lease granted before this start may still run (its end was not kept). */
  private final long unknownEndMillis;

  /** @param file where the promised epochs are kept (null: in memory, for tests) */
  LeasePromises(Path file) {
    this.file = file;
    this.unknownEndMillis = System.currentTimeMillis() + ExecutorLeases.leaseMillis;
    if (file != null && Files.exists(file)) {
      try {
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
          int sp = line.lastIndexOf(' ');
          if (sp > 0) {
            promises.put(line.substring(0, sp),
                new Promise(Long.parseLong(line.substring(sp + 1)), null, unknownEndMillis, unknownEndMillis));
          }
        }
      } catch (IOException | NumberFormatException e) {
        throw new IllegalStateException("cannot read the Redis executors' lease promises in " + file + ": " + e, e);
      }
    }
  }

  /** The epoch promised for {@code lease} (0: none). */
  long promised(String lease) {
    Promise p = promises.get(lease);
    return p == null ? 0 : p.epoch();
  }

  /**
   * Grants (or renews) epoch {@code epoch} of {@code lease} to {@code holder} until {@code endMillis}:
   * refused when a newer epoch was promised, or the same one to another holder.
   */
  Answer grant(String lease, long epoch, InetAddress holder, long endMillis) {
    lock.writeLock().lock();
    try {
      Promise p = promises.get(lease);
      long promised = p == null ? 0 : p.epoch();
      boolean renewal = p != null && epoch == promised && holder.equals(p.holder());
      if (epoch < promised || (epoch == promised && !renewal && p != null)) {
        return new Answer(false, promised, 0);
      }
      boolean sameHolder = p != null && holder.equals(p.holder());
      if (p != null && !sameHolder && p.endMillis() > System.currentTimeMillis()) {
        // Another holder's lease runs: a lease is not taken from a holder that renews it (two
        // nodes that disagree on who is UP would take it from each other for ever); the asker
        // waits for its end and asks again. A paused or cut-off holder stops renewing.
        return new Answer(false, promised, p.endMillis());
      }
      // No promise: no lease was granted here (a restart reloads the epochs, with unknown ends).
      long previous = p == null ? 0 : sameHolder ? p.previousEndMillis() : Math.max(p.previousEndMillis(), p.endMillis());
      long otherEnd = previous;
      promises.put(lease, new Promise(epoch, holder, renewal ? Math.max(endMillis, p.endMillis()) : endMillis, previous));
      if (epoch > promised) {
        try {
          persist();
        } catch (RuntimeException e) {
          if (p == null) {
            promises.remove(lease);
          } else {
            promises.put(lease, p);
          }
          throw e;
        }
      }
      return new Answer(true, epoch, otherEnd);
    } finally {
      lock.writeLock().unlock();
    }
  }

  @Override
  public void apply(Fence fence, Runnable apply) {
    if (fence == null) {
      apply.run();
      return;
    }
    lock.readLock().lock();
    try {
      long promised = promised(fence.lease());
      if (fence.epoch() < promised) {
        throw new Refused("fenced: epoch " + fence.epoch() + " of lease " + fence.lease() + " is older than the "
            + "promised " + promised);
      }
      if (fence.epoch() == promised) {
        apply.run();
        return;
      }
    } finally {
      lock.readLock().unlock();
    }
    // A newer epoch than promised (this replica missed its grant): promise it, then apply.
    lock.writeLock().lock();
    try {
      Promise p = promises.get(fence.lease());
      long promised = p == null ? 0 : p.epoch();
      if (fence.epoch() < promised) {
        throw new Refused("fenced: epoch " + fence.epoch() + " of lease " + fence.lease() + " is older than the "
            + "promised " + promised);
      }
      if (fence.epoch() > promised) {
        long end = p == null ? unknownEndMillis : Math.max(p.endMillis(), p.previousEndMillis());
        promises.put(fence.lease(), new Promise(fence.epoch(), null, end, end));
        persist();
      }
      apply.run();
    } finally {
      lock.writeLock().unlock();
    }
  }

  /** Writes every promised epoch to the file and fsyncs it (write lock held). */
  private void persist() {
    if (file == null) {
      return;
    }
    StringBuilder out = new StringBuilder();
    for (Map.Entry<String, Promise> e : promises.entrySet()) {
      out.append(e.getKey()).append(' ').append(e.getValue().epoch()).append('\n');
    }
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    try {
      try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
          StandardOpenOption.TRUNCATE_EXISTING)) {
        ByteBuffer b = ByteBuffer.wrap(out.toString().getBytes(StandardCharsets.UTF_8));
        while (b.hasRemaining()) {
          ch.write(b);
        }
        ch.force(true);
      }
      Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      try (FileChannel dir = FileChannel.open(file.getParent(), StandardOpenOption.READ)) {
        dir.force(true);
      } catch (IOException e) {
        LOG.debug("cannot fsync {}: {}", file.getParent(), e.toString()); // some file systems refuse it
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot keep the Redis executors' lease promises in " + file, e);
    }
  }
}
