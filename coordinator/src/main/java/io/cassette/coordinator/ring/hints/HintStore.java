package io.cassette.coordinator.ring.hints;

import io.cassette.storage.StorageException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hints on disk ({@code hints_directory}): per target node, a sequence of append-only
 * {@link HintsFile}s, the newest one open for appending. Bounded: a file is closed past
 * {@code max_hints_file_size}; a node's hints stop being stored past
 * {@code max_hints_size_per_host}. Appends are gathered in a 64 KiB buffer per node, written
 * and fsynced by {@link #sync()} (every {@code hints_flush_period}) and when a file is closed,
 * so flash sees one write per period, not one per hint. After a restart the files found are delivered
 * as they are (a torn tail record is skipped by {@link RecordReader}) and new hints go to new
 * files. Thread-safe: each node's files are guarded by their own lock.
 */
public final class HintStore implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(HintStore.class);
  /**
   * Hints are gathered in memory per node up to this much before they are written, as
   * Cassandra's hint buffers are: a write system call per 64 KiB, not per hint. What is in
   * it when the process dies is lost (up to {@code hints_flush_period} of hints, as in Cassandra).
   */
  static final int BUFFER_BYTES = 64 << 10;

  /** The hints of one target node. Guarded by itself. */
  private static final class Host {
    final ArrayDeque<HintsFile> closed = new ArrayDeque<>();   // oldest first
    final Map<Path, Long> sizes = new ConcurrentHashMap<>();
    RecordWriter writer;
    HintsFile writing;
    long bytes;
  }

  private final Path directory;
  private final long maxFileSize;
  private final long maxBytesPerHost;
  private final LongSupplier clock;
  private final Map<UUID, Host> hosts = new ConcurrentHashMap<>();
  private long lastCreated;

  /**
   * Opens (creating) {@code directory} and finds the hints files already there.
   *
   * @param maxBytesPerHost 0 for unbounded
   * @param clock           milliseconds since the epoch (file names, hint times)
   */
  public HintStore(Path directory, long maxFileSize, long maxBytesPerHost, LongSupplier clock) {
    this.directory = directory;
    this.maxFileSize = maxFileSize;
    this.maxBytesPerHost = maxBytesPerHost;
    this.clock = clock;
    List<HintsFile> found = new ArrayList<>();
    try {
      Files.createDirectories(directory);
      try (DirectoryStream<Path> ds = Files.newDirectoryStream(directory, "*.hints")) {
        for (Path p : ds) {
          HintsFile f = HintsFile.parse(p);
          if (f != null) {
            found.add(f);
          }
        }
      }
      found.sort(Comparator.comparingLong(HintsFile::createdMillis));
      for (HintsFile f : found) {
        long size = Files.size(f.path());
        if (size <= RecordFile.HEADER_BYTES) {
          Files.deleteIfExists(f.path()); // created, never written to
          continue;
        }
        Host h = hosts.computeIfAbsent(f.hostId(), k -> new Host());
        h.closed.add(f);
        h.sizes.put(f.path(), size);
        h.bytes += size;
        lastCreated = Math.max(lastCreated, f.createdMillis());
      }
    } catch (IOException e) {
      throw new StorageException("cannot open the hints directory " + directory + ": " + e, e);
    }
    if (!hosts.isEmpty()) {
      LOG.info("Hints: {} files for {} nodes in {}", found.size(), hosts.size(), directory);
    }
  }

  public Path directory() {
    return directory;
  }

  /**
   * Appends a hint for {@code hostId}.
   *
   * @return false when that node's hints have reached {@code max_hints_size_per_host}
   */
  public boolean append(UUID hostId, byte[] mutationPayload) {
    return append(hostId, mutationPayload, clock.getAsLong());
  }

  /** As {@link #append(UUID, byte[])}, for a hint created at {@code now} (ms; one handed over by a leaving node). */
  public boolean append(UUID hostId, byte[] mutationPayload, long now) {
    byte[] record = ByteBuffer.allocate(8 + mutationPayload.length).putLong(now).put(mutationPayload).array();
    long recordBytes = record.length + RecordFile.RECORD_OVERHEAD;
    Host h = hosts.computeIfAbsent(hostId, k -> new Host());
    synchronized (h) {
      if (maxBytesPerHost > 0 && h.bytes + recordBytes > maxBytesPerHost) {
        return false;
      }
      if (h.writer != null && h.writer.size() + recordBytes > maxFileSize && h.writer.size() > RecordFile.HEADER_BYTES) {
        closeWriter(h);
      }
      if (h.writer == null) {
        long created = nextCreated(now);
        HintsFile f = new HintsFile(directory.resolve(HintsFile.name(hostId, created)), hostId, created);
        h.writer = new RecordWriter(f.path(), RecordFile.HINTS_MAGIC, BUFFER_BYTES);
        h.writing = f;
        h.bytes += RecordFile.HEADER_BYTES;
      }
      try {
        h.bytes += h.writer.append(record);
        return true;
      } catch (StorageException e) {
        // A full disk, or a channel closed by an interrupt: drop this hint, start a new file
        // next time (what did reach this one is read as far as it is whole).
        LOG.warn("Hints: {}; the hint is dropped", e.getMessage());
        try {
          closeWriter(h);
        } catch (StorageException closing) {
          h.closed.add(h.writing);
          h.sizes.put(h.writing.path(), h.writer.size());
          h.writer = null;
          h.writing = null;
        }
        return false;
      }
    }
  }

  private synchronized long nextCreated(long now) {
    lastCreated = Math.max(now, lastCreated + 1);
    return lastCreated;
  }

  private static void closeWriter(Host h) {
    h.writer.close();
    h.closed.add(h.writing);
    h.sizes.put(h.writing.path(), h.writer.size());
    h.writer = null;
    h.writing = null;
  }

  /**
   * Closes the file being appended to (new hints go to a new one) and returns every file
   * for {@code hostId}, oldest first: what a delivery reads.
   */
  public List<HintsFile> closeForDelivery(UUID hostId) {
    Host h = hosts.get(hostId);
    if (h == null) {
      return List.of();
    }
    synchronized (h) {
      if (h.writer != null) {
        closeWriter(h);
      }
      return List.copyOf(h.closed);
    }
  }

  /** Deletes a file whose hints were all delivered (or are to be dropped). */
  public void delete(HintsFile f) {
    Host h = hosts.get(f.hostId());
    if (h == null) {
      return;
    }
    synchronized (h) {
      if (h.closed.remove(f)) {
        Long size = h.sizes.remove(f.path());
        h.bytes -= size == null ? 0 : size;
        deleteFile(f.path());
      }
    }
  }

  /** Deletes every hint for {@code hostId}; returns the bytes they took. */
  public long truncate(UUID hostId) {
    Host h = hosts.get(hostId);
    if (h == null) {
      return 0;
    }
    synchronized (h) {
      if (h.writer != null) {
        closeWriter(h);
      }
      long bytes = h.bytes;
      for (HintsFile f : h.closed) {
        deleteFile(f.path());
      }
      h.closed.clear();
      h.sizes.clear();
      h.bytes = 0;
      return bytes;
    }
  }

  /** The nodes that have hints here. */
  public Set<UUID> hosts() {
    Set<UUID> out = new java.util.LinkedHashSet<>();
    for (Map.Entry<UUID, Host> e : hosts.entrySet()) {
      synchronized (e.getValue()) {
        if (e.getValue().writer != null || !e.getValue().closed.isEmpty()) {
          out.add(e.getKey());
        }
      }
    }
    return out;
  }

  /** Bytes on disk for {@code hostId}'s hints. */
  public long bytes(UUID hostId) {
    Host h = hosts.get(hostId);
    if (h == null) {
      return 0;
    }
    synchronized (h) {
      return h.bytes;
    }
  }

  /** What listpendinghints shows: per node with hints, its files and their ages. */
  public List<PendingHints> pending() {
    List<PendingHints> out = new ArrayList<>();
    for (Map.Entry<UUID, Host> e : hosts.entrySet()) {
      Host h = e.getValue();
      synchronized (h) {
        List<HintsFile> all = new ArrayList<>(h.closed);
        if (h.writing != null) {
          all.add(h.writing);
        }
        if (all.isEmpty()) {
          continue;
        }
        long newest = Long.MIN_VALUE;
        long oldest = Long.MAX_VALUE;
        for (HintsFile f : all) {
          newest = Math.max(newest, f.createdMillis());
          oldest = Math.min(oldest, f.createdMillis());
        }
        out.add(new PendingHints(e.getKey(), all.size(), newest, oldest, h.bytes));
      }
    }
    return out;
  }

  /** Fsyncs the files appended to since the last call. */
  public void sync() {
    for (Host h : hosts.values()) {
      synchronized (h) {
        if (h.writer != null) {
          try {
            h.writer.sync();
          } catch (StorageException e) {
            LOG.warn("Hints: {}", e.getMessage());
          }
        }
      }
    }
  }

  /** Closes (and syncs) the open files; the hints stay for the next start. */
  @Override
  public void close() {
    for (Host h : hosts.values()) {
      synchronized (h) {
        if (h.writer != null) {
          closeWriter(h);
        }
      }
    }
  }

  private static void deleteFile(Path p) {
    try {
      Files.deleteIfExists(p);
    } catch (IOException e) {
      LOG.warn("Hints: cannot delete {}: {}", p, e.toString());
    }
  }
}
