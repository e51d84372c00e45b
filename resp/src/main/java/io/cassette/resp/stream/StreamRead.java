package io.cassette.resp.stream;

import io.cassette.resp.command.Args;
import io.cassette.resp.command.CommandContext;
import io.cassette.resp.command.Errors;
import io.cassette.resp.command.RedisException;
import io.cassette.resp.keyspace.Batch;
import io.cassette.resp.keyspace.Database;
import io.cassette.resp.protocol.Reply;
import java.util.ArrayList;
import java.util.List;

/**
 * XREAD and XREADGROUP (xreadCommand). A client that blocks keeps its command for retry with
 * every "$" replaced by the ID it stood for, so data added later is what wakes it; a retry that
 * finds nothing keeps waiting. A blocked XREADGROUP whose stream or group went away is
 * answered with Redis's UNBLOCKED / NOGROUP errors.
 */
final class StreamRead {
  private StreamRead() {}

  /** What one stream of the command answers. */
  private record Served(byte[] key, List<Stream.Entry> entries, List<StreamId> missing) {}

  static void execute(CommandContext c, boolean group) {
    byte[][] argv = c.args;
    long deadline = -1;
    int blockArg = -1;
    long count = 0;
    int streamsArg = 0;
    int streams = 0;
    boolean noack = false;
    byte[] groupName = null;
    byte[] consumerName = null;
    String name = group ? "xreadgroup" : "xread";
    for (int i = 1; i < argv.length; i++) {
      int more = argv.length - i - 1;
      byte[] o = argv[i];
      if (Args.is(o, "block") && more > 0) {
        if (c.session.id == -1) { // a script's client
          throw new RedisException("ERR " + name + " command is not allowed with BLOCK option from scripts");
        }
        i++;
        blockArg = i;
        deadline = StreamCommands.blockDeadline(argv[i]);
      } else if (Args.is(o, "count") && more > 0) {
        i++;
        count = Args.parseLong(argv[i]);
        if (count < 0) {
          count = 0;
        }
      } else if (Args.is(o, "streams") && more > 0) {
        streamsArg = i + 1;
        streams = argv.length - streamsArg;
        if (streams % 2 != 0) {
          throw new RedisException("ERR Unbalanced " + (group ? "XREADGROUP" : "XREAD")
              + " list of streams: for each stream key an ID or '$' must be specified.");
        }
        streams /= 2;
        break;
      } else if (Args.is(o, "group") && more >= 2) {
        if (!group) {
          throw new RedisException("ERR The GROUP option is only supported by XREADGROUP. You called XREAD instead.");
        }
        groupName = argv[i + 1];
        consumerName = argv[i + 2];
        i += 2;
      } else if (Args.is(o, "noack")) {
        if (!group) {
          throw new RedisException("ERR The NOACK option is only supported by XREADGROUP. You called XREAD instead.");
        }
        noack = true;
      } else {
        throw new RedisException(Errors.SYNTAX);
      }
    }
    if (streamsArg == 0) {
      throw new RedisException(Errors.SYNTAX);
    }
    if (group && groupName == null) {
      throw new RedisException("ERR Missing GROUP option for XREADGROUP");
    }
    boolean retry = c.session.blocked != null;
    Database db = c.db();
    Stream[] opened = new Stream[streams];
    ConsumerGroup[] groups = new ConsumerGroup[streams];
    StreamId[] ids = new StreamId[streams];
    boolean[] newOnly = new boolean[streams];
    for (int i = 0; i < streams; i++) {
      byte[] key = argv[streamsArg + i];
      byte[] idArg = argv[streamsArg + streams + i];
      Stream s;
      if (retry && group) {
        s = Stream.openIfStream(db, key);
        if (s == null) {
          c.server.blocking.unblock(c.session);
          throw new RedisException("UNBLOCKED the stream key no longer exists");
        }
      } else {
        s = retry ? Stream.openIfStream(db, key) : Stream.open(db, key);
      }
      opened[i] = s;
      if (group) {
        ConsumerGroup g = s == null ? null : s.group(groupName);
        if (g == null) {
          if (retry) {
            c.server.blocking.unblock(c.session);
            throw new RedisException("NOGROUP the consumer group this client was blocked on no longer exists");
          }
          throw new RedisException("NOGROUP No such key '" + Args.str(key) + "' or consumer group '"
              + Args.str(groupName) + "' in XREADGROUP with GROUP option");
        }
        groups[i] = g;
      }
      if (idArg.length == 1 && idArg[0] == '$') {
        if (group) {
          throw new RedisException("ERR The $ ID is meaningless in the context of XREADGROUP: you want"
              + " to read the history of this consumer by specifying a proper ID, or use the > ID"
              + " to get new messages. The $ ID would just return an empty result set.");
        }
        ids[i] = s == null ? StreamId.MIN : s.state.last;
        continue;
      } else if (idArg.length == 1 && idArg[0] == '>') {
        if (!group) {
          throw new RedisException("ERR The > ID can be specified only when calling XREADGROUP using"
              + " the GROUP <group> <consumer> option.");
        }
        newOnly[i] = true;
        ids[i] = StreamId.MAX;
        continue;
      }
      ids[i] = StreamId.parseStrict(idArg);
    }
    long now = StreamCommands.nowMs();
    List<Served> served = new ArrayList<>();
    for (int i = 0; i < streams; i++) {
      Stream s = opened[i];
      if (s == null) {
        continue;
      }
      byte[] key = argv[streamsArg + i];
      ConsumerGroup g = groups[i];
      if (g != null) {
        if (!newOnly[i]) {
          served.add(history(c, s, g, consumerName, ids[i], count, now, noack));
          continue;
        }
        if (s.length() == 0 || s.lastValidId().compareTo(g.lastId) <= 0) {
          continue;
        }
        served.add(deliverNew(c, s, g, consumerName, count, now, noack));
        continue;
      }
      if (s.length() == 0 || s.lastValidId().compareTo(ids[i]) <= 0) {
        continue;
      }
      StreamId start = ids[i].next();
      if (start == null) {
        continue;
      }
      served.add(new Served(key, s.range(start, StreamId.MAX, false, count), null));
    }
    if (!served.isEmpty()) {
      if (retry) {
        c.server.blocking.unblock(c.session);
      }
      reply(c.reply(), served);
      return;
    }
    if (deadline != -1) {
      if (!c.mayBlock) {
        c.reply().nullArray();
        return;
      }
      if (retry) {
        return; // keep waiting
      }
      byte[][] again = argv.clone();
      List<byte[]> keys = new ArrayList<>();
      for (int i = 0; i < streams; i++) {
        keys.add(argv[streamsArg + i]);
        if (!newOnly[i]) {
          again[streamsArg + streams + i] = ids[i].bytes(); // "$" means the ID it was now
        }
      }
      if (count == 0) { // Redis serves a woken reader at most 1000 entries without COUNT
        byte[][] withCount = new byte[again.length + 2][];
        withCount[0] = again[0];
        withCount[1] = Args.bytes("COUNT");
        withCount[2] = Args.bytes("1000");
        System.arraycopy(again, 1, withCount, 3, again.length - 1);
        again = withCount;
      }
      StreamCommands.block(c, again, keys, deadline);
      return;
    }
    c.reply().nullArray();
  }

  /** New entries for a group ('>'): moves its last ID, records them as pending unless NOACK. */
  private static Served deliverNew(CommandContext c, Stream s, ConsumerGroup g, byte[] consumerName,
                                   long count, long now, boolean noack) {
    String cname = ConsumerGroup.name(consumerName);
    ConsumerGroup.Consumer consumer = consumer(c, s, g, cname, now);
    StreamId start = g.lastId.next();
    List<Stream.Entry> entries = start == null ? List.of()
        : s.range(start, StreamId.MAX, false, count);
    for (Stream.Entry e : entries) {
      s.delivered(g, e.id());
      if (!noack) {
        ConsumerGroup.Nack nack = g.pel.get(e.id());
        if (nack == null) {
          nack = new ConsumerGroup.Nack(cname, now, 1);
        } else {
          nack.deliveryTime = now;
          nack.deliveryCount = 1;
        }
        g.assign(e.id(), nack, consumer);
      }
    }
    Batch b = c.db().batch();
    s.saveGroup(b, groupArg(c), g);
    b.commit();
    return new Served(s.key, entries, null);
  }

  /** A consumer's own pending entries from {@code from} (history): deleted ones answer null. */
  private static Served history(CommandContext c, Stream s, ConsumerGroup g, byte[] consumerName,
                                StreamId from, long count, long now, boolean noack) {
    String cname = ConsumerGroup.name(consumerName);
    ConsumerGroup.Consumer consumer = consumer(c, s, g, cname, now);
    List<Stream.Entry> entries = new ArrayList<>();
    List<StreamId> ids = new ArrayList<>();
    StreamId start = from.next(); // history is read after the ID given, as new entries are
    if (start == null) {
      return new Served(s.key, entries, ids);
    }
    for (var e : consumer.pel.tailMap(start, true).entrySet()) {
      if (count != 0 && ids.size() >= count) {
        break;
      }
      StreamId id = e.getKey();
      Stream.Entry entry = s.entry(id);
      ids.add(id);
      entries.add(entry == null ? new Stream.Entry(id, -1, null) : entry);
      if (entry != null) {
        e.getValue().deliveryTime = now;
        e.getValue().deliveryCount++;
      }
    }
    Batch b = c.db().batch();
    s.saveGroup(b, groupArg(c), g);
    b.commit();
    return new Served(s.key, entries, ids);
  }

  /** The consumer, created (with its keyspace event) when new; its seen-time refreshed. */
  static ConsumerGroup.Consumer consumer(CommandContext c, Stream s, ConsumerGroup g, String name,
                                         long now) {
    ConsumerGroup.Consumer consumer = g.lookup(name, now);
    if (consumer == null) {
      consumer = g.create(name, now);
      StreamCommands.event(c, "xgroup-createconsumer", s.key);
    }
    return consumer;
  }

  private static byte[] groupArg(CommandContext c) {
    for (int i = 1; i + 2 < c.argc(); i++) {
      if (Args.is(c.arg(i), "group")) {
        return c.arg(i + 1);
      }
    }
    throw new IllegalStateException("no GROUP argument");
  }

  private static void reply(Reply r, List<Served> served) {
    if (r.resp3()) {
      r.map(served.size());
    } else {
      r.array(served.size());
    }
    for (Served s : served) {
      if (!r.resp3()) {
        r.array(2);
      }
      r.bulk(s.key());
      r.array(s.entries().size());
      for (Stream.Entry e : s.entries()) {
        if (e.fields() == null) {
          r.array(2);
          r.bulk(e.id().bytes());
          r.nullArray();
        } else {
          StreamCommands.entry(r, e);
        }
      }
    }
  }
}
