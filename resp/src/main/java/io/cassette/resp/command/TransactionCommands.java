package io.cassette.resp.command;

import static io.cassette.resp.command.CommandSpec.FAST;
import static io.cassette.resp.command.CommandSpec.LOADING;
import static io.cassette.resp.command.CommandSpec.NO_MULTI;
import static io.cassette.resp.command.CommandSpec.NO_QUEUE;
import static io.cassette.resp.command.CommandSpec.STALE;

import io.cassette.resp.server.ServerContext;
import io.cassette.resp.session.Session;
import java.util.ArrayList;
import java.util.List;

/**
 * MULTI, EXEC, DISCARD, WATCH, UNWATCH. Commands are queued per session; EXEC runs them in
 * one go on the command thread, so no other client's command interleaves (atomic as Redis).
 */
final class TransactionCommands {
  private TransactionCommands() {}

  static void register(CommandTable t) {
    t.add("multi", 1, NO_QUEUE | LOADING | STALE | FAST, c -> {
      if (c.session.inMulti) {
        throw new RedisException("ERR MULTI calls can not be nested");
      }
      c.session.inMulti = true;
      c.session.multiFailed = false;
      c.server.dropMultiQueue(c.session);
      c.reply().ok();
    });
    t.add("exec", 1, NO_QUEUE | LOADING | STALE, TransactionCommands::exec);
    t.add("discard", 1, NO_QUEUE | LOADING | STALE | FAST, c -> {
      if (!c.session.inMulti) {
        throw new RedisException("ERR DISCARD without MULTI");
      }
      endMulti(c.server, c.session);
      c.server.watches.unwatchAll(c.session);
      c.reply().ok();
    });
    t.add("watch", -2, NO_QUEUE | NO_MULTI | LOADING | STALE | FAST, 1, -1, 1, c -> {
      if (c.session.inMulti) {
        throw new RedisException("ERR WATCH inside MULTI is not allowed");
      }
      // Refused whole when the node's watches would pass their bound (Redis has none).
      long need = 0;
      for (int i = 1; i < c.argc(); i++) {
        need += io.cassette.resp.session.WatchRegistry.cost(c.arg(i));
      }
      var watches = c.server.watches;
      if (watches.bytes() + need > watches.maxBytes()) {
        throw new RedisException("ERR too many watched keys on this node (" + watches.bytes()
            + " bytes of " + watches.maxBytes() + " in use)");
      }
      for (int i = 1; i < c.argc(); i++) {
        c.server.watches.watch(c.session, c.session.db, c.arg(i));
      }
      c.reply().ok();
    });
    t.add("unwatch", 1, NO_QUEUE | LOADING | STALE | FAST, c -> {
      c.server.watches.unwatchAll(c.session);
      c.reply().ok();
    });
  }

  private static void endMulti(ServerContext server, Session s) {
    s.inMulti = false;
    s.multiFailed = false;
    server.dropMultiQueue(s);
  }

  private static void exec(CommandContext c) {
    Session s = c.session;
    if (!s.inMulti) {
      throw new RedisException("ERR EXEC without MULTI");
    }
    List<byte[][]> queue = new ArrayList<>(s.multiQueue);
    boolean failed = s.multiFailed;
    boolean dirty = s.watchDirty;
    endMulti(c.server, s);
    c.server.watches.unwatchAll(s);
    if (failed) {
      throw new RedisException("EXECABORT Transaction discarded because of previous errors.");
    }
    if (dirty) {
      c.reply().nullArray();
      return;
    }
    if (c.server.ring != null && c.server.ring.forwardExec(s, queue)) {
      return; // runs whole on the node executing its keys
    }
    c.reply().array(queue.size());
    for (byte[][] args : queue) {
      c.server.runner.run(s, args, false);
    }
  }
}
