package io.cassette.coordinator.ring.batchlog;

import io.cassette.coordinator.ring.GroupSync;
import io.cassette.coordinator.ring.hints.RecordFile;
import io.cassette.coordinator.ring.hints.RecordReader;
import io.cassette.coordinator.ring.hints.RecordWriter;
import io.cassette.storage.StorageException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The batches this node keeps for coordinators (Cassandra's {@code system.batches}), in
 * {@code <data>/batchlog}: append-only segments of records, each a batch stored or a batch
 * removed; the live batches are also held in memory (they are few and short-lived: a batch is
 * removed as soon as its coordinator has applied it).
 *
 * <pre>
 * segment := RecordFile with magic 'CSBL', named batchlog-&lt;sequence&gt;.log
 * record  := kind:u8 (1 stored, 2 removed) id:uuid(msb:i64 lsb:i64)
 *            [storedAt:i64 (ms) mutation (a MUTATION_REQ payload) if stored]
 * </pre>
 *
 * A segment is closed past {@link #SEGMENT_BYTES} and deleted once it is the oldest and none
 * of the batches stored in it is live (so a removal is never lost while its batch's record
 * is still on disk). At open every segment is read in order (a torn tail is skipped) and
 * writing starts in a new one.
 *
 * <p>Every append reaches the operating system before it returns (it survives the process being
 * killed); when it reaches the disk follows the node's {@code commitlog_sync}, as Cassandra's
 * {@code system.batches}, written through its commit log, does:
 * <ul>
 *   <li>{@code syncPeriodMillis} 0 (batch/group): a stored batch is fsynced before {@link #store}
 *       returns, so a batch acknowledged to its coordinator, or a base write whose view batch this
 *       is, survives a power loss; stores that arrive while an fsync runs share the next one;
 *   <li>{@code syncPeriodMillis} &gt; 0 (periodic): fsynced by {@link #sync()}, which the batch log
 *       calls every period, never on a request's path.
 * </ul>
 * A removal is never waited for: a lost one only makes a batch replayed again. Thread-safe (one
 * lock for the appends; fsyncs are grouped by {@link GroupSync}, so appends go on during one).
 */
public final class BatchlogStore implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(BatchlogStore.class);
  static final long SEGMENT_BYTES = 4L << 20;
  private static final int STORED = 1;
  private static final int REMOVED = 2;

  /** A live batch: its id, when this node stored it (ms) and its mutation payload. */
  public record Entry(UUID id, long storedMillis, byte[] mutation) {}

  private record Live(Entry entry, long segment) {}

  private final Path directory;
  private final LongSupplier clock;
  private final Map<UUID, Live> live = new LinkedHashMap<>();
  /** Live batches per segment, oldest segment first. */
  private final TreeMap<Long, Integer> liveBySegment = new TreeMap<>();
  private final Map<Long, Path> segments = new TreeMap<>();
  private RecordWriter writer;
  private long current;
  /** 0: a store is fsynced before it returns; else how often the batch log calls {@link #sync()}. */
  private final long syncPeriodMillis;
  /** Records appended since open (guarded by this). */
  private long appended;
  /** Stores that wait for an fsync share one; appends go on meanwhile. */
  private final GroupSync groupSync = new GroupSync(this, this::pending);

  /** Fsynced every 10 s (commitlog_sync periodic with Cassandra's default period). */
  public BatchlogStore(Path directory, LongSupplier clock) {
    this(directory, clock, 10_000);
  }

  /**
   * @param syncPeriodMillis 0 for commitlog_sync batch or group (a store returns once fsynced),
   *                         else periodic's commitlog_sync_period
   */
  public BatchlogStore(Path directory, LongSupplier clock, long syncPeriodMillis) {
    if (syncPeriodMillis < 0) {
      throw new IllegalArgumentException("sync period: " + syncPeriodMillis + " ms (expected: >= 0)");
    }
    this.directory = directory;
    this.clock = clock;
    this.syncPeriodMillis = syncPeriodMillis;
    try {
      Files.createDirectories(directory);
      List<Long> found = new ArrayList<>();
      try (DirectoryStream<Path> ds = Files.newDirectoryStream(directory, "batchlog-*.log")) {
        for (Path p : ds) {
          String n = p.getFileName().toString();
          found.add(Long.parseLong(n.substring("batchlog-".length(), n.length() - ".log".length())));
        }
      }
      found.sort(null);
      for (long seq : found) {
        Path p = segmentPath(seq);
        segments.put(seq, p);
        liveBySegment.put(seq, 0);
        try (RecordReader in = new RecordReader(p, RecordFile.BATCHLOG_MAGIC, 0)) {
          byte[] r;
          while ((r = in.next()) != null) {
            apply(ByteBuffer.wrap(r), seq);
          }
        }
        current = seq;
      }
    } catch (IOException | NumberFormatException e) {
      throw new StorageException("cannot open the batch log in " + directory + ": " + e, e);
    }
    dropDeadSegments();
    if (!live.isEmpty()) {
      LOG.info("Batch log: {} batches to replay in {}", live.size(), directory);
    }
  }

  private void apply(ByteBuffer r, long segment) {
    int kind = r.get();
    UUID id = new UUID(r.getLong(), r.getLong());
    if (kind == STORED) {
      long at = r.getLong();
      byte[] mutation = new byte[r.remaining()];
      r.get(mutation);
      add(new Entry(id, at, mutation), segment);
    } else if (kind == REMOVED) {
      forget(id);
    }
  }

  private void add(Entry e, long segment) {
    if (live.put(e.id(), new Live(e, segment)) == null) {
      liveBySegment.merge(segment, 1, Integer::sum);
    }
  }

  private void forget(UUID id) {
    Live l = live.remove(id);
    if (l != null) {
      liveBySegment.merge(l.segment(), -1, Integer::sum);
    }
  }

  private Path segmentPath(long seq) {
    return directory.resolve("batchlog-" + seq + ".log");
  }

  /** Keeps a batch for its coordinator: written, and fsynced too when there is no sync period. */
  public void store(UUID id, byte[] mutation) {
    long mine;
    synchronized (this) {
      long now = clock.getAsLong();
      append(ByteBuffer.allocate(25 + mutation.length).put((byte) STORED).putLong(id.getMostSignificantBits())
          .putLong(id.getLeastSignificantBits()).putLong(now).put(mutation).array());
      add(new Entry(id, now, mutation), current);
      mine = appended;
    }
    if (syncPeriodMillis == 0) {
      groupSync.syncThrough(mine);
    }
  }

  /** 0: each store is fsynced before it returns; else how often {@link #sync()} is to be called. */
  public long syncPeriodMillis() {
    return syncPeriodMillis;
  }

  /** Forgets a batch (applied by its coordinator, or replayed here); unknown ids are ignored. */
  public synchronized void remove(UUID id) {
    if (!live.containsKey(id)) {
      return;
    }
    append(ByteBuffer.allocate(17).put((byte) REMOVED).putLong(id.getMostSignificantBits())
        .putLong(id.getLeastSignificantBits()).array());
    forget(id);
    dropDeadSegments();
  }

  private void append(byte[] record) {
    if (writer != null && writer.size() > SEGMENT_BYTES) {
      writer.close();
      writer = null;
    }
    if (writer == null) {
      current++;
      Path p = segmentPath(current);
      writer = new RecordWriter(p, RecordFile.BATCHLOG_MAGIC);
      segments.put(current, p);
      liveBySegment.put(current, 0);
    }
    writer.append(record);
    appended++;
  }

  /** Deletes the oldest segments while none of their batches is live (never the one written to). */
  private void dropDeadSegments() {
    while (!liveBySegment.isEmpty()) {
      Map.Entry<Long, Integer> oldest = liveBySegment.firstEntry();
      if (oldest.getValue() > 0 || (writer != null && oldest.getKey() == current)) {
        return;
      }
      liveBySegment.pollFirstEntry();
      Path p = segments.remove(oldest.getKey());
      try {
        Files.deleteIfExists(p);
      } catch (IOException e) {
        LOG.warn("Batch log: cannot delete {}: {}", p, e.toString());
      }
    }
  }

  /** The live batches stored at least {@code ageMillis} ago, oldest first. */
  public synchronized List<Entry> olderThan(long ageMillis) {
    long now = clock.getAsLong();
    List<Entry> out = new ArrayList<>();
    for (Live l : live.values()) {
      if (now - l.entry().storedMillis() >= ageMillis) {
        out.add(l.entry());
      }
    }
    return out;
  }

  /** How many batches are live. */
  public synchronized int size() {
    return live.size();
  }

  /** Segments on disk (for tests and the operator). */
  public synchronized int segmentCount() {
    return segments.size();
  }

  /** Fsyncs what was appended before this call (appends go on meanwhile). */
  public void sync() {
    long last;
    synchronized (this) {
      last = appended;
    }
    groupSync.syncThrough(last);
  }

  /** Records appended and not yet known to be on disk (for tests and the operator). */
  public synchronized long unsynced() {
    return appended - groupSync.synced();
  }

  /** What the next fsync covers (called under this lock). Segments closed since were fsynced by the close. */
  private GroupSync.Pending pending() {
    RecordWriter w = writer;
    return new GroupSync.Pending(appended, () -> {
      if (w != null) {
        w.force();
      }
    });
  }

  @Override
  public void close() {
    groupSync.exclusively(() -> {
      if (writer != null) {
        writer.close();
        writer = null;
      }
    });
  }
}
