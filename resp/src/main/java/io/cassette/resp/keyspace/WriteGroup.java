package io.cassette.resp.keyspace;

import io.cassette.coordinator.Coordinator;
import io.cassette.coordinator.Request;
import io.cassette.storage.Mutation;
import io.cassette.storage.PartitionUpdate;
import java.util.ArrayList;
import java.util.List;

/**
 * The writes of several pipelined commands applied as one {@link Mutation}: one commit-log
 * record and one pass through the coordinator instead of one per command. The dispatcher
 * {@link #open opens} a group for the commands of one socket read that only read and write
 * keys, and {@link #commit commits} it before their replies leave the node, before any other
 * command runs, and at a bound.
 *
 * <p>While open, a command's writes wait here, already visible to later commands of the
 * group: the caches are updated as if the write had been applied (as {@link Batch} does after
 * a commit), and any read of storage first writes what waits ({@link #beforeRead}), so a read
 * that misses the caches sees every earlier write. A group that fails to apply has failed as a
 * whole: the dispatcher answers every command of it with the error, and the caches, which may
 * hold writes that never happened, are dropped ({@link Keyspace#groupFailed}).
 *
 * <p>One node only: on a ring the writes of a key go to its replicas with the executor's
 * fence, one command at a time. Not thread-safe: the command thread owns it.
 */
public final class WriteGroup {
  /** Updates kept before the group is written anyway (a bounded commit-log record). */
  static final int MAX_UPDATES = 512;

  private final Coordinator coordinator;
  private final Request request;
  private final List<PartitionUpdate> pending = new ArrayList<>();
  private boolean open;
  /** Why the group's write failed (the dispatcher answers its commands with it); null: it did not. */
  private RuntimeException failure;

  WriteGroup(Coordinator coordinator, Request request) {
    this.coordinator = coordinator;
    this.request = request;
  }

  /** Whether a group may be opened at all: one node, where this node's writes are all the writes. */
  public boolean possible() {
    return coordinator.seesAllWrites();
  }

  /** Starts collecting writes (the dispatcher, before the first command of a group). */
  public void open() {
    open = true;
    failure = null;
  }

  public boolean isOpen() {
    return open;
  }

  /** Whether so many writes wait that the group should be written now. */
  public boolean full() {
    return pending.size() >= MAX_UPDATES;
  }

  /** The failure that ended the group, or null. */
  public RuntimeException failure() {
    return failure;
  }

  /** Takes a command's writes: kept while the group is open (true), else the caller writes them. */
  boolean add(Mutation m) {
    if (!open || failure != null) {
      return false;
    }
    pending.addAll(m.updates());
    return true;
  }

  /** Before a read of storage: what waits is written first, so the read sees it. */
  void beforeRead() {
    if (!pending.isEmpty()) {
      write();
    }
  }

  /**
   * Writes what waits and closes the group. Throws what the write threw (also recorded as
   * {@link #failure}); the group is closed either way.
   */
  public void commit() {
    try {
      if (!pending.isEmpty()) {
        write();
      }
    } finally {
      open = false;
    }
  }

  private void write() {
    Mutation m = new Mutation(new ArrayList<>(pending));
    pending.clear();
    try {
      coordinator.write(m, request);
    } catch (RuntimeException e) {
      failure = e;
      throw e;
    }
  }
}
