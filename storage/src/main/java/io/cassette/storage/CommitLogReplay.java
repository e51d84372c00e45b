package io.cassette.storage;

import io.cassette.storage.commitlog.CommitLogPosition;
import io.cassette.storage.commitlog.CommitLogReader;
import io.cassette.storage.commitlog.CommitLogSegment;
import io.cassette.storage.commitlog.MutationSerializer;
import io.cassette.storage.io.ByteArrayReader;
import java.util.List;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Recovery at open: the records of the segments found on disk, oldest first, go back into
 * memtables, except for tables that are gone (dropped) and records at or before a table's
 * flushed position (already in its SSTables, or truncated). Each segment learns which tables
 * it holds as it is read, so that it can be deleted once they flush. A torn tail ends its
 * segment ({@link CommitLogReader}); the next segment is still read.
 */
final class CommitLogReplay {
  private static final Logger LOG = LoggerFactory.getLogger(CommitLogReplay.class);

  /** What replay needs from the engine. */
  interface Target {
    /** The table with this id, or null if it was dropped. */
    LocalTable table(UUID id);

    /** The record ending at {@code end} is being replayed (flushes use it as their upper bound). */
    void replaying(CommitLogPosition end);

    /** Applies one replayed update to the table's memtable, within the memory budget. */
    void apply(LocalTable table, PartitionUpdate update);
  }

  private CommitLogReplay() {}

  /** Replays {@code segments} in order into {@code target}; returns the number of records read. */
  static int replay(List<CommitLogSegment> segments, Target target) {
    long started = System.nanoTime();
    int records = 0;
    for (CommitLogSegment segment : segments) {
      CommitLogReader.Result r = CommitLogReader.read(segment, (end, payload) -> {
        List<MutationSerializer.TableUpdate> updates = MutationSerializer.read(new ByteArrayReader(payload), id -> {
          LocalTable t = target.table(id);
          return t == null ? null : new MutationSerializer.TableRef(t.spec().keyspace(), t.spec().name());
        });
        target.replaying(end);
        for (MutationSerializer.TableUpdate u : updates) {
          LocalTable t = target.table(u.tableId());
          if (t == null || end.compareTo(t.flushedPosition) <= 0) {
            continue;
          }
          target.apply(t, u.update());
          segment.markDirty(t.spec().id());
        }
      });
      records += r.records();
    }
    if (records > 0) {
      LOG.info("replayed {} commit-log records in {} ms", records, (System.nanoTime() - started) / 1_000_000);
    }
    return records;
  }
}
