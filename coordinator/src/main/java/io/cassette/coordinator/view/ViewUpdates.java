package io.cassette.coordinator.view;

import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.ReadQuery;
import java.util.List;

/**
 * How the materialized views of one base table follow a write to it. The front door that
 * defines the views implements it (it knows how keys and values are encoded); the coordinator
 * calls it on the base replica, with the base partition held, between reading the partition and
 * applying the write, as Cassandra's ViewManager does on its base replicas.
 *
 * <p>Thread-safe and free of side effects: it only computes.
 */
public interface ViewUpdates {

  /**
   * What of the base partition the views need to see before {@code update} is applied: the
   * rows it writes or deletes (the whole partition when it deletes ranges or the partition).
   */
  ReadQuery readBefore(PartitionUpdate update, long nowInSeconds);

  /**
   * The updates of the view tables that take each view from {@code before} (the base partition
   * as {@link #readBefore} selected it, with its tombstones) to {@code before} merged with
   * {@code update}: new view rows, changed cells, and deletions of view rows whose key changed
   * or whose base row is gone. Empty when no view row changes.
   */
  List<PartitionUpdate> compute(PartitionUpdate update, PartitionUpdate before, long nowInSeconds);
}
