package io.cassette.storage.partition;

import java.util.Iterator;

/**
 * Partitions in token order with a look-ahead: merges (scans, compactions) compare the
 * heads of several sources and advance those holding the smallest key. Not thread-safe.
 */
public final class PeekingSource {
  private final Iterator<? extends PartitionSource> it;
  private PartitionSource head;

  public PeekingSource(Iterator<? extends PartitionSource> it) {
    this.it = it;
    advance();
  }

  /** The next partition, or null when the source is exhausted. */
  public PartitionSource head() {
    return head;
  }

  public void advance() {
    head = it.hasNext() ? it.next() : null;
  }
}
