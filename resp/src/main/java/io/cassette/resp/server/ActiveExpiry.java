package io.cassette.resp.server;

import io.cassette.resp.keyspace.Database;
import io.cassette.resp.keyspace.RedisLayout;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Redis's active expiry cycle: every {@link #PERIOD_MILLIS} on the command thread, delete keys
 * whose TTL passed, through the expiry index, spending at most {@link #BUDGET_MILLIS}.
 * Keys nobody reads would otherwise keep their space until read (lazy expiry).
 */
public final class ActiveExpiry implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(ActiveExpiry.class);
  /** Redis runs the cycle hz=10 times a second. */
  public static final long PERIOD_MILLIS = 100;
  /** Redis's slow cycle uses at most 25% of a period. */
  static final long BUDGET_MILLIS = 25;

  private final ServerContext server;

  public ActiveExpiry(ServerContext server) {
    this.server = server;
  }

  @Override
  public void run() {
    if (server.scriptBusy()) {
      return; // a long script owns the dataset (Redis does not expire keys under a script either)
    }
    try {
      long deadline = System.currentTimeMillis() + BUDGET_MILLIS;
      for (int i = 0; i < RedisLayout.DATABASES; i++) {
        Database db = server.keyspace.existing(i);
        if (db == null) {
          continue;
        }
        while (System.currentTimeMillis() < deadline) {
          List<byte[]> removed = db.expireSome();
          for (byte[] key : removed) {
            server.watches.touch(i, key);
            server.events.notify(server, io.cassette.resp.pubsub.KeyspaceEvents.EXPIRED,
                "expired", key, i);
          }
          server.stats.expiredKeys.addAndGet(removed.size());
          if (removed.isEmpty()) {
            break;
          }
        }
      }
    } catch (RuntimeException e) {
      LOG.warn("active expiry cycle failed: {}", e.toString());
    }
  }
}
