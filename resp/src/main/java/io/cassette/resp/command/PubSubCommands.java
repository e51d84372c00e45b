package io.cassette.resp.command;

import static io.cassette.resp.command.CommandSpec.FAST;
import static io.cassette.resp.command.CommandSpec.LOADING;
import static io.cassette.resp.command.CommandSpec.PUBSUB;
import static io.cassette.resp.command.CommandSpec.STALE;

import io.cassette.resp.protocol.Reply;
import io.cassette.resp.pubsub.PubSubHub;
import io.cassette.resp.session.Session;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/** SUBSCRIBE, UNSUBSCRIBE, PSUBSCRIBE, PUNSUBSCRIBE, PUBLISH, PUBSUB. */
final class PubSubCommands {
  private PubSubCommands() {}

  static void register(CommandTable t) {
    int flags = PUBSUB | LOADING | STALE;
    t.add("subscribe", -2, flags, c -> {
      checkRoom(c);
      for (int i = 1; i < c.argc(); i++) {
        c.server.pubsub.subscribe(c.session, c.arg(i));
        confirm(c.reply(), "subscribe", c.arg(i), c.session.subscriptions());
      }
    });
    t.add("psubscribe", -2, flags, c -> {
      checkRoom(c);
      for (int i = 1; i < c.argc(); i++) {
        c.server.pubsub.psubscribe(c.session, c.arg(i));
        confirm(c.reply(), "psubscribe", c.arg(i), c.session.subscriptions());
      }
    });
    t.add("unsubscribe", -1, flags, c -> unsubscribe(c, false));
    t.add("punsubscribe", -1, flags, c -> unsubscribe(c, true));
    t.add("publish", 3, PUBSUB | LOADING | STALE | FAST, c -> {
      if (c.server.ring != null) {
        c.server.ring.publish(c.arg(1), c.arg(2)); // subscribers on the other nodes
      }
      c.reply().integer(c.server.pubsub.publish(c.server, c.arg(1), c.arg(2)));
    });
    t.add("pubsub", -2, PUBSUB | LOADING | STALE, PubSubCommands::pubsub);
  }

  /**
   * Refuses the whole command when its names could take the node's subscriptions past their
   * bound (Redis has none; a 64 MiB heap holds a few hundred thousand subscriptions).
   */
  private static void checkRoom(CommandContext c) {
    PubSubHub hub = c.server.pubsub;
    long need = 0;
    for (int i = 1; i < c.argc(); i++) {
      need += PubSubHub.cost(c.arg(i));
    }
    if (hub.bytes() + need > hub.maxBytes()) {
      throw new RedisException("ERR too many subscriptions on this node (" + hub.bytes()
          + " bytes of " + hub.maxBytes() + " in use)");
    }
  }

  private static void confirm(Reply r, String kind, byte[] name, int count) {
    r.push(3);
    r.bulk(kind);
    if (name == null) {
      r.nullBulk();
    } else {
      r.bulk(name);
    }
    r.integer(count);
  }

  private static void unsubscribe(CommandContext c, boolean patterns) {
    Session s = c.session;
    String kind = patterns ? "punsubscribe" : "unsubscribe";
    List<ByteBuffer> names = new ArrayList<>();
    if (c.argc() == 1) {
      names.addAll(patterns ? s.patterns : s.channels);
      if (names.isEmpty()) {
        confirm(c.reply(), kind, null, s.subscriptions());
        return;
      }
    } else {
      for (int i = 1; i < c.argc(); i++) {
        names.add(ByteBuffer.wrap(c.arg(i)));
      }
    }
    for (ByteBuffer n : names) {
      if (patterns) {
        c.server.pubsub.punsubscribe(s, n);
      } else {
        c.server.pubsub.unsubscribe(s, n);
      }
      confirm(c.reply(), kind, PubSubHub.bytes(n), s.subscriptions());
    }
  }

  private static void pubsub(CommandContext c) {
    String sub = c.argString(1).toLowerCase();
    Reply r = c.reply();
    switch (sub) {
      case "channels" -> {
        if (c.argc() > 3) {
          throw new RedisException(Errors.wrongArity("pubsub|channels"));
        }
        List<byte[]> channels = c.server.pubsub.channels(c.argc() == 3 ? c.arg(2) : null);
        r.array(channels.size());
        for (byte[] ch : channels) {
          r.bulk(ch);
        }
      }
      case "numsub" -> {
        r.map(c.argc() - 2);
        for (int i = 2; i < c.argc(); i++) {
          r.bulk(c.arg(i));
          r.integer(c.server.pubsub.subscribers(c.arg(i)));
        }
      }
      case "numpat" -> {
        ConnectionCommands.arity(c, 2, "pubsub|numpat");
        r.integer(c.server.pubsub.patternCount());
      }
      case "help" -> {
        r.array(1);
        r.status("PUBSUB CHANNELS [<pattern>] | NUMSUB [<channel> ...] | NUMPAT");
      }
      default -> throw new RedisException(Errors.unknownSubcommand(c.argString(1), "PUBSUB"));
    }
  }
}
