package io.cassette.resp.command;

import io.cassette.resp.protocol.Reply;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * {@link KeysInTurns#steps} and {@link CollectionInTurns}'s output check for command families
 * outside this package (streams): a long read runs in turns of the command thread so other
 * clients are served between its chunks.
 */
public final class WorkInTurns {
  /** Elements one step reads. */
  public static final int ROWS_PER_STEP = CollectionInTurns.ROWS_PER_STEP;

  private WorkInTurns() {}

  /** Whether {@code size} elements are read in turns (only when the client may wait). */
  public static boolean inTurns(CommandContext c, long size) {
    return CollectionInTurns.inTurns(c, size);
  }

  /** Runs {@code step} until it answers true, in turns; then {@code finish} writes the reply. */
  public static void steps(CommandContext c, BooleanSupplier step, Consumer<Reply> finish) {
    KeysInTurns.steps(c, step, finish, () -> { });
  }

  /** Refuses a result held past the client's hard output limit. */
  public static void check(CommandContext c, long heldBytes) {
    CollectionInTurns.check(c, heldBytes);
  }
}
