package io.cassette.resp.config;

import io.cassette.resp.command.RedisException;
import io.cassette.resp.session.Session;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Redis's {@code client-output-buffer-limit} plus one node-wide bound: how many reply bytes
 * may wait unsent for a client that does not read them. Unsent bytes are counted per
 * {@link Session#pendingOutput} from the moment a reply buffer is written until the socket
 * took it, and summed in {@link #nodePending}.
 *
 * <ul>
 *   <li>hard limit of the client's class: over it, the client is closed at once;</li>
 *   <li>soft limit: over it for longer than soft-seconds, the client is closed;</li>
 *   <li>node budget: while all clients together have more unsent than {@link #nodeBudget},
 *       a client with more than {@link #BACKED_UP_BYTES} unsent is closed: it is one of the
 *       clients not reading, and only those pay.</li>
 * </ul>
 * Redis's normal class is unlimited ({@code 0 0 0}); ours cannot be, as replies wait in
 * direct memory the size of the heap: the defaults derive from that memory (see
 * {@link #forDirectMemory}). Thread-safe: limits are volatile, counters atomic.
 */
public final class OutputLimits {
  /** Unsent bytes beyond which a client counts as not reading (and its commands pause). */
  public static final long BACKED_UP_BYTES = 1 << 20;
  /** Below this many unsent bytes a paused client's commands run again. */
  public static final long RESUME_BYTES = 256 << 10;
  /** Replicas do not exist here; Redis's values are kept so CONFIG GET shows them. */
  private static final String SLAVE_CLASS = "slave 268435456 67108864 60";

  /** One class's limits; 0 disables a limit. */
  public record Limit(long hard, long soft, long softSeconds) {
    String text() {
      return hard + " " + soft + " " + softSeconds;
    }
  }

  public final AtomicLong nodePending = new AtomicLong();
  public final long nodeBudget;
  private volatile Limit normal;
  private volatile Limit pubsub;

  public OutputLimits(long nodeBudget, Limit normal, Limit pubsub) {
    this.nodeBudget = nodeBudget;
    this.normal = normal;
    this.pubsub = pubsub;
  }

  /**
   * Defaults from {@code directBytes} (where replies wait): the node budget is a quarter of
   * it; a normal client may use all of that (hard) or a quarter of it for 60 s (soft);
   * pub/sub keeps Redis's 32mb/8mb/60 when it fits, scaled down like the budget otherwise.
   * A 64 MiB node: budget 16 MiB, normal 16 MiB/4 MiB/60 s, pubsub 16 MiB/4 MiB/60 s.
   */
  public static OutputLimits forDirectMemory(long directBytes) {
    long budget = Math.max(4L << 20, directBytes / 4);
    return new OutputLimits(budget, new Limit(budget, budget / 4, 60),
        new Limit(Math.min(32L << 20, budget), Math.min(8L << 20, budget / 4), 60));
  }

  public Limit normal() {
    return normal;
  }

  public Limit pubsub() {
    return pubsub;
  }

  /** The value CONFIG GET shows, in Redis's format. */
  public String configValue() {
    return "normal " + normal.text() + " " + SLAVE_CLASS + " pubsub " + pubsub.text();
  }

  /**
   * CONFIG SET client-output-buffer-limit: "class hard soft seconds" repeated; sizes take
   * Redis's units (1mb, 512kb). Validates all before applying any, with Redis's texts.
   */
  public void set(String value) {
    String[] w = value.trim().isEmpty() ? new String[0] : value.trim().split("\\s+");
    if (w.length == 0 || w.length % 4 != 0) {
      throw invalid("Wrong number of arguments in buffer limit configuration.");
    }
    Limit newNormal = normal;
    Limit newPubsub = pubsub;
    for (int i = 0; i < w.length; i += 4) {
      String cls = w[i].toLowerCase();
      if (!cls.equals("normal") && !cls.equals("slave") && !cls.equals("replica")
          && !cls.equals("pubsub")) {
        throw invalid("Invalid client class specified in buffer limit configuration.");
      }
      long hard = MemoryUnits.parse(w[i + 1]);
      long soft = MemoryUnits.parse(w[i + 2]);
      long seconds = MemoryUnits.parse(w[i + 3]);
      if (hard < 0 || soft < 0 || seconds < 0) {
        throw invalid("Error in hard, soft or soft_seconds setting in buffer limit configuration.");
      }
      Limit l = new Limit(hard, soft, seconds);
      if (cls.equals("normal")) {
        newNormal = l;
      } else if (cls.equals("pubsub")) {
        newPubsub = l;
      }
    }
    normal = newNormal;
    pubsub = newPubsub;
  }

  /**
   * Why {@code s} must be closed now, or null. {@code extra} are reply bytes produced but not
   * yet written. Updates the session's soft-limit clock; call on the command thread.
   */
  public String violation(Session s, long extra, long nowMillis) {
    long pending = s.pendingOutput.get() + extra;
    Limit l = s.subscriptions() > 0 ? pubsub : normal;
    if (l.hard() > 0 && pending > l.hard()) {
      return "hard limit " + l.hard();
    }
    if (l.soft() > 0 && pending > l.soft()) {
      if (s.softLimitSinceMillis == 0) {
        s.softLimitSinceMillis = nowMillis;
      } else if (nowMillis - s.softLimitSinceMillis > l.softSeconds() * 1000) {
        return "soft limit " + l.soft() + " for " + l.softSeconds() + " s";
      }
    } else {
      s.softLimitSinceMillis = 0;
    }
    if (pending > BACKED_UP_BYTES && nodePending.get() + extra > nodeBudget) {
      return "node output budget " + nodeBudget + " (" + nodePending.get() + " unsent)";
    }
    return null;
  }

  private static RedisException invalid(String why) {
    return new RedisException("ERR CONFIG SET failed (possibly related to argument "
        + "'client-output-buffer-limit') - " + why);
  }
}
