package io.cassette.resp.command;

import io.cassette.resp.protocol.Reply;
import io.cassette.resp.server.ServerContext;
import io.cassette.resp.session.Session;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Runs a multi-key command (DEL, UNLINK, EXISTS, TOUCH, MGET, MSET) over its keys in turns of
 * the command thread, as KEYS does: at most {@link #KEYS_PER_TURN} keys or {@link #SLICE_NANOS}
 * per turn, then the other clients' commands run before it goes on. Each key costs a storage
 * read (and a commit for writes), so one DEL or MGET of the half a million keys a 64 MiB node
 * accepts in one request held every other client for seconds. Its own client waits (its later
 * commands queue behind it), so its replies stay in order.
 *
 * <p>Outside MULTI a command of more keys than a turn is therefore not isolated: another client
 * may see some of an MSET's keys set and not yet others, as with a pipeline of SETs. Inside EXEC
 * (and on a ring's executor for a forwarded command) it runs whole, as before. Command thread only.
 */
final class KeysInTurns {
  /** Keys one turn may visit. */
  static final int KEYS_PER_TURN = 1000;
  /** Time one turn may take, as the dispatcher's turn of a pipeline. */
  static final long SLICE_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

  /** The work for the key at one argument index. */
  interface Step {
    void key(int argIndex);
  }

  /** Work counted in steps instead of keys (a collection read in chunks); null for keys. */
  private final java.util.function.BooleanSupplier steps;
  private boolean stepsDone;
  private final ServerContext server;
  private final Session session;
  private final int end;
  private final int stride;
  private final Step step;
  private final Consumer<Reply> finish;
  private final Runnable cleanup;
  private final Session.Blocked marker;
  /** The command writes: it goes on when its client has left. */
  private final boolean writes;
  private int next;

  private KeysInTurns(CommandContext c, int first, int stride, Step step, Consumer<Reply> finish,
                      Runnable cleanup) {
    this(c, first, stride, step, null, finish, cleanup);
  }

  private KeysInTurns(CommandContext c, int first, int stride, Step step, java.util.function.BooleanSupplier steps,
                      Consumer<Reply> finish, Runnable cleanup) {
    this.steps = steps;
    this.cleanup = cleanup;
    this.writes = c.spec.has(CommandSpec.WRITE);
    this.server = c.server;
    this.session = c.session;
    this.end = c.argc();
    this.stride = stride;
    this.step = step;
    this.finish = finish;
    this.next = first;
    this.marker = new Session.Blocked(c.args, List.of(), 0);
  }

  /**
   * Runs {@code step} for the arguments {@code first, first + stride, ...}, then
   * {@code finish} writes the reply. When the command may not wait (inside EXEC) or its keys
   * fit one turn, all of it runs now.
   */
  static void run(CommandContext c, int first, int stride, Step step, Consumer<Reply> finish) {
    run(c, first, stride, step, finish, () -> { });
  }

  /** As above; {@code cleanup} runs once at the end, whether the reply was written or not. */
  static void run(CommandContext c, int first, int stride, Step step, Consumer<Reply> finish, Runnable cleanup) {
    if (!c.mayBlock || (c.argc() - first) / stride <= KEYS_PER_TURN) {
      try {
        for (int i = first; i < c.argc(); i += stride) {
          step.key(i);
        }
        finish.accept(c.reply());
      } finally {
        cleanup.run();
      }
      return;
    }
    KeysInTurns turns = new KeysInTurns(c, first, stride, step, finish, cleanup);
    try {
      if (turns.turn()) {
        finish.accept(c.reply());
        cleanup.run();
        return;
      }
    } catch (RuntimeException | Error e) {
      cleanup.run();
      throw e;
    }
    // More to do: the client waits (its later commands queue) while others get turns.
    c.session.blocked = turns.marker;
    turns.later();
  }

  /**
   * Runs {@code step} (one chunk of work, true when all is done) until done, in turns of at most
   * {@link #SLICE_NANOS}, then {@code finish} writes the reply; {@code cleanup} runs once at the end.
   * Used for commands over a huge collection (SMEMBERS, SUNION, HGETALL, LRANGE ...). Not in turns
   * when the command may not wait (inside EXEC): then all of it runs now.
   */
  static void steps(CommandContext c, java.util.function.BooleanSupplier step, Consumer<Reply> finish,
                    Runnable ownCleanup) {
    Runnable cleanup = () -> {
      CollectionInTurns.release(c); // what its elements held counts no more, however it ended
      ownCleanup.run();
    };
    KeysInTurns turns = new KeysInTurns(c, 0, 1, null, step, finish, cleanup);
    try {
      boolean done;
      if (!c.mayBlock) {
        while (!step.getAsBoolean()) {
          // all now
        }
        done = true;
      } else {
        done = turns.turn();
      }
      if (done) {
        finish.accept(c.reply());
        cleanup.run();
        return;
      }
    } catch (RuntimeException | Error e) {
      cleanup.run();
      throw e;
    }
    c.session.blocked = turns.marker;
    turns.later();
  }

  /** One turn; true when every key is done. */
  private boolean turn() {
    long start = System.nanoTime();
    if (steps != null) {
      while (!stepsDone) {
        stepsDone = steps.getAsBoolean();
        if (System.nanoTime() - start > SLICE_NANOS) {
          break;
        }
      }
      return stepsDone;
    }
    int visited = 0;
    while (next < end) {
      step.key(next);
      next += stride;
      if (++visited >= KEYS_PER_TURN || System.nanoTime() - start > SLICE_NANOS) {
        break;
      }
    }
    return next >= end;
  }

  private void later() {
    try {
      // scheduled, not executed: on the event loop that lets it read other clients in between
      server.commandThread.schedule(this::resume, 0, TimeUnit.NANOSECONDS);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      cleanup.run(); // shutting down
    }
  }

  private void resume() {
    boolean gone = session.closed || !session.channel.isActive();
    if (session.blocked != marker || (gone && !writes)) {
      cleanup.run();
      return; // unblocked by RESET, or a reader that left: nobody needs the rest
    }
    Consumer<Reply> write;
    try {
      if (!turn()) {
        later(); // a client that left still has its writes done, as the dispatcher does
        return;
      }
      write = finish;
    } catch (RedisException e) {
      write = r -> r.error(e.getMessage());
    } catch (RuntimeException | Error e) {
      // as the dispatcher does with any failure while serving a client: that client only
      org.slf4j.LoggerFactory.getLogger(KeysInTurns.class).warn("closing client id={}: {} failed",
          session.id, Args.str(marker.args[0]), e);
      cleanup.run();
      session.closed = true;
      session.channel.close();
      if (e instanceof VirtualMachineError && !(e instanceof OutOfMemoryError)) {
        throw e;
      }
      return;
    }
    session.blocked = null;
    try {
      if (!gone) {
        server.deliver(session, write);
        server.runner.resume(session);
      }
    } finally {
      cleanup.run();
    }
  }
}
