package io.cassette.storage;

import java.util.List;

/**
 * One or more partition updates written as one commit-log record: after a crash either all
 * of them are replayed or none (CQL's logged batch on a single node).
 */
public record Mutation(List<PartitionUpdate> updates) {
  public Mutation {
    updates = List.copyOf(updates);
  }

  public static Mutation of(PartitionUpdate update) {
    return new Mutation(List.of(update));
  }
}
