package io.cassette.coordinator.view;

import io.cassette.storage.PartitionUpdate;
import java.util.List;

/**
 * Where a base replica's view updates go. One node: nowhere else, they are applied with the
 * base write in one commit-log record ({@link #LOCAL}). The ring: each to the view replica
 * paired with this base replica (Cassandra's rule), which may be this node.
 */
public interface ViewUpdateSink {
  /** Every view update applied with the base write, in the same mutation (the one-node case). */
  ViewUpdateSink LOCAL = (baseUpdate, viewUpdates) -> viewUpdates;

  /**
   * Sends {@code viewUpdates}, computed by this base replica for {@code baseUpdate}, to their
   * view replicas. Returns the ones this node must apply itself, with the base write.
   */
  List<PartitionUpdate> route(PartitionUpdate baseUpdate, List<PartitionUpdate> viewUpdates);
}
