package io.cassette.storage;

import io.cassette.storage.memtable.MemtablePartition;
import io.cassette.storage.partition.PartitionDigest;
import io.cassette.storage.partition.PartitionSource;
import io.cassette.storage.sstable.DigestFileReader;
import io.cassette.storage.sstable.SSTableReader;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link Table#digests}: the digest of every partition of a token range, in token order, for
 * repair's validation, without reading the partitions where it can.
 *
 * <p>Stored mode (a {@link LocalTable} whose SSTables all have a Digest.db): the SSTables'
 * digest entries and the memtables' keys are merged by token. A token held by exactly one
 * SSTable entry that has a digest gets that digest (the partition is in that SSTable only, and
 * timeless, so what was stored is what would be computed). Every other token (held by several
 * sources, by a memtable, or by a partition with deletions or TTLs) is read whole by key and
 * its digest computed ({@link PartitionDigest#digest}). Memory: one 8 KiB block per SSTable.
 *
 * <p>Computed mode (another kind of table, an SSTable without Digest.db, or a Digest.db found
 * damaged part-way, which is logged): an unfiltered scan of the rest of the range, each
 * partition's digest computed. Both modes give the same digests.
 *
 * <p>Digests are 64 bits ({@link TokenDigest#low} is 0), as Digest.db version 2 stores them:
 * stored and computed ones must agree, and 64 bits keep a missed difference at 2^-64.
 *
 * <p>Token groups are emitted whole, so a switch to computed mode resumes after the last token
 * emitted. Not thread-safe; close it (it holds references on the SSTables it reads).
 */
final class DigestScan implements Table.CloseableIterator<TokenDigest> {
  private static final Logger LOG = LoggerFactory.getLogger(DigestScan.class);

  private final Table table;
  private final long endToken;
  private final long nowInSeconds;
  private final long gcBefore;
  private final PartitionDigest digest = new PartitionDigest();
  private final ArrayDeque<TokenDigest> ready = new ArrayDeque<>();
  /** Every partition with a token <= this has been emitted. */
  private long doneThrough;

  // Stored mode.
  private TableView view;
  private final List<SSTableReader> sstables = new ArrayList<>();
  private final List<DigestFileReader> files = new ArrayList<>();
  private boolean[] fileOnEntry;
  private final List<Iterator<? extends PartitionSource>> memtables = new ArrayList<>();
  private MemtablePartition[] memtableHeads;

  // Computed mode.
  private Table.CloseableIterator<PartitionUpdate> computed;
  private boolean closed;

  private DigestScan(Table table, long startTokenExclusive, long endToken, long nowInSeconds) {
    this.table = table;
    this.endToken = endToken;
    this.nowInSeconds = nowInSeconds;
    this.gcBefore = nowInSeconds - table.spec().gcGraceSeconds();
    this.doneThrough = startTokenExclusive;
  }

  /** Computed mode only: for any table. */
  static Table.CloseableIterator<TokenDigest> computed(Table table, long startTokenExclusive, long endToken,
                                                     long nowInSeconds) {
    DigestScan s = new DigestScan(table, startTokenExclusive, endToken, nowInSeconds);
    s.startComputed();
    return s;
  }

  /** Stored mode where every SSTable of the range has a Digest.db, else computed. */
  static Table.CloseableIterator<TokenDigest> open(LocalTable table, long startTokenExclusive, long endToken,
                                                 long nowInSeconds) {
    DigestScan s = new DigestScan(table, startTokenExclusive, endToken, nowInSeconds);
    s.view = table.acquireView();
    try {
      for (SSTableReader r : s.view.sstables()) {
        if (r.stats().lastKey().token() <= startTokenExclusive || r.stats().firstKey().token() > endToken) {
          continue;
        }
        DigestFileReader f = DigestFileReader.open(r, startTokenExclusive, endToken);
        if (f == null) {
          s.closeStored();
          s.startComputed(); // an SSTable written before Digest.db existed
          return s;
        }
        s.sstables.add(r);
        s.files.add(f);
      }
      s.fileOnEntry = new boolean[s.files.size()];
      for (int i = 0; i < s.files.size(); i++) {
        s.fileOnEntry[i] = s.files.get(i).next();
      }
      KeyRange range = KeyRange.tokens(startTokenExclusive, endToken);
      for (io.cassette.storage.memtable.Memtable m : s.view.memtables()) {
        if (!m.isEmpty()) {
          s.memtables.add(LocalTable.memtableRange(m, range));
        }
      }
      s.memtableHeads = new MemtablePartition[s.memtables.size()];
      for (int i = 0; i < s.memtables.size(); i++) {
        s.memtableHeads[i] = nextOf(s.memtables.get(i));
      }
    } catch (StorageException e) {
      LOG.warn("validation of {} reads every partition instead of stored digests: {}", table, e.getMessage());
      s.closeStored();
      s.startComputed();
    } catch (RuntimeException e) {
      s.close();
      throw e;
    }
    return s;
  }

  private static MemtablePartition nextOf(Iterator<? extends PartitionSource> it) {
    return it.hasNext() ? (MemtablePartition) it.next() : null;
  }

  @Override
  public boolean hasNext() {
    while (ready.isEmpty() && !closed) {
      if (computed != null) {
        stepComputed();
      } else {
        try {
          stepStored();
        } catch (StorageException e) {
          LOG.warn("validation of {} reads the partitions after token {} instead of stored digests: {}", table,
              doneThrough, e.getMessage());
          closeStored();
          startComputed();
        }
      }
    }
    return !ready.isEmpty();
  }

  @Override
  public TokenDigest next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    return ready.poll();
  }

  /** Emits the next token's partitions: the stored digest if it is alone and has one, else computed. */
  private void stepStored() {
    boolean any = false;
    long min = 0;
    for (int i = 0; i < files.size(); i++) {
      if (fileOnEntry[i] && (!any || files.get(i).token() < min)) {
        min = files.get(i).token();
        any = true;
      }
    }
    for (MemtablePartition p : memtableHeads) {
      if (p != null && (!any || p.key().token() < min)) {
        min = p.key().token();
        any = true;
      }
    }
    if (!any) {
      closeStored();
      closed = true;
      return;
    }
    int sources = 0;
    TokenDigest stored = null;
    // SSTable entries of the token as (SSTable index, Index.db position): keys are read only if needed.
    List<long[]> entries = new ArrayList<>(2);
    List<DecoratedKey> keys = new ArrayList<>(2);
    for (int i = 0; i < files.size(); i++) {
      DigestFileReader f = files.get(i);
      while (fileOnEntry[i] && f.token() == min) {
        sources++;
        if (f.hasDigest()) {
          stored = new TokenDigest(min, f.high(), 0, true);
        }
        entries.add(new long[] {i, f.indexPosition()});
        fileOnEntry[i] = f.next();
      }
    }
    for (int i = 0; i < memtableHeads.length; i++) {
      while (memtableHeads[i] != null && memtableHeads[i].key().token() == min) {
        sources++;
        keys.add(memtableHeads[i].key());
        memtableHeads[i] = nextOf(memtables.get(i));
      }
    }
    if (sources == 1 && stored != null) {
      ready.add(stored);
    } else {
      for (long[] e : entries) {
        SSTableReader r = sstables.get((int) e[0]);
        DecoratedKey k = r.keyAt(e[1]);
        if (k.token() != min) {
          throw new StorageException("digest file of " + r + " names token " + min + " where its index has "
              + k.token());
        }
        keys.add(k);
      }
      List<TokenDigest> out = new ArrayList<>(keys.size());
      for (int i = 0; i < keys.size(); i++) {
        if (!seenBefore(keys, i)) {
          PartitionUpdate u = table.readUnfiltered(keys.get(i).key(), ReadQuery.all(nowInSeconds));
          if (digest.digest(u, nowInSeconds, gcBefore)) {
            out.add(new TokenDigest(min, digest.high(), 0, false));
          }
        }
      }
      ready.addAll(out);
    }
    doneThrough = min;
  }

  private static boolean seenBefore(List<DecoratedKey> keys, int i) {
    for (int j = 0; j < i; j++) {
      if (java.util.Arrays.equals(keys.get(j).key(), keys.get(i).key())) {
        return true;
      }
    }
    return false;
  }

  /** Computed mode from the first token not yet emitted to the range's end. */
  private void startComputed() {
    computed = table.scanUnfiltered(KeyRange.tokens(doneThrough, endToken), ReadQuery.all(nowInSeconds));
  }

  private void stepComputed() {
    if (!computed.hasNext()) {
      close();
      return;
    }
    PartitionUpdate u = computed.next();
    if (digest.digest(u, nowInSeconds, gcBefore)) {
      ready.add(new TokenDigest(Murmur3Token.of(u.key()), digest.high(), 0, false));
    }
  }

  private void closeStored() {
    for (DigestFileReader f : files) {
      f.close();
    }
    files.clear();
    sstables.clear();
    memtables.clear();
    memtableHeads = new MemtablePartition[0];
    if (view != null) {
      LocalTable.release(view);
      view = null;
    }
  }

  @Override
  public void close() {
    closed = true;
    closeStored();
    if (computed != null) {
      computed.close();
    }
  }
}
