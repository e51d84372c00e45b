package io.cassette.resp.stream;

import static io.cassette.resp.command.CommandSpec.DENY_OOM;
import static io.cassette.resp.command.CommandSpec.FAST;
import static io.cassette.resp.command.CommandSpec.READONLY;
import static io.cassette.resp.command.CommandSpec.WRITE;

import io.cassette.resp.command.Args;
import io.cassette.resp.command.CommandContext;
import io.cassette.resp.command.CommandTable;
import io.cassette.resp.command.Errors;
import io.cassette.resp.command.RedisException;
import io.cassette.resp.keyspace.Batch;
import io.cassette.resp.protocol.Reply;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** Consumer groups (t_stream.c): XGROUP, XACK, XPENDING, XCLAIM, XAUTOCLAIM. */
final class StreamGroupCommands {
  private StreamGroupCommands() {}

  static void register(CommandTable t) {
    t.add("xgroup", -2, WRITE | DENY_OOM, 2, 2, 1, StreamGroupCommands::xgroup);
    t.add("xack", -4, WRITE | FAST, 1, 1, 1, StreamGroupCommands::xack);
    t.add("xpending", -3, READONLY, 1, 1, 1, StreamGroupCommands::xpending);
    t.add("xclaim", -6, WRITE | FAST, 1, 1, 1, StreamGroupCommands::xclaim);
    t.add("xautoclaim", -6, WRITE | FAST, 1, 1, 1, StreamGroupCommands::xautoclaim);
  }

  private static RedisException noGroup(byte[] key, byte[] group) {
    return new RedisException("NOGROUP No such key '" + Args.str(key) + "' or consumer group '"
        + Args.str(group) + "'");
  }

  private static RedisException subcommandSyntax(CommandContext c) {
    return new RedisException("ERR unknown subcommand or wrong number of arguments for '"
        + Args.str(c.arg(1)) + "'. Try XGROUP HELP.");
  }

  private static final String[] HELP = {
      "XGROUP <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
      "CREATE <key> <groupname> <id|$> [option]",
      "    Create a new consumer group. Options are:",
      "    * MKSTREAM",
      "      Create the empty stream if it does not exist.",
      "    * ENTRIESREAD entries_read",
      "      Set the group's entries_read counter (internal use).",
      "CREATECONSUMER <key> <groupname> <consumer>",
      "    Create a new consumer in the specified group.",
      "DELCONSUMER <key> <groupname> <consumer>",
      "    Remove the specified consumer.",
      "DESTROY <key> <groupname>",
      "    Remove the specified group.",
      "SETID <key> <groupname> <id|$> [ENTRIESREAD entries_read]",
      "    Set the current group ID and entries_read counter.",
      "HELP",
      "    Prints this help."};

  static void help(Reply r, String[] lines) {
    r.array(lines.length);
    for (String l : lines) {
      r.status(l);
    }
  }

  private static final Map<String, Integer> ARITIES = Map.of("create", -5, "createconsumer", 5,
      "delconsumer", 5, "destroy", 4, "setid", -5, "help", 2);

  private static void xgroup(CommandContext c) {
    StreamCommands.checkSubcommand(c, "XGROUP", ARITIES);
    String opt = c.argString(1).toLowerCase(java.util.Locale.ROOT);
    boolean mkstream = false;
    long entriesRead = ConsumerGroup.INVALID_ENTRIES_READ;
    Stream s = null;
    byte[] groupName = null;
    ConsumerGroup g = null;
    if (c.argc() >= 4) {
      boolean create = opt.equals("create");
      boolean setid = opt.equals("setid");
      for (int i = 5; i < c.argc(); ) {
        if (create && Args.is(c.arg(i), "mkstream")) {
          mkstream = true;
          i++;
        } else if ((create || setid) && Args.is(c.arg(i), "entriesread") && i + 1 < c.argc()) {
          entriesRead = Args.parseLong(c.arg(i + 1));
          if (entriesRead < 0 && entriesRead != ConsumerGroup.INVALID_ENTRIES_READ) {
            throw new RedisException("ERR value for ENTRIESREAD must be positive or -1");
          }
          i += 2;
        } else {
          throw subcommandSyntax(c);
        }
      }
      s = Stream.open(c.db(), c.arg(2));
      groupName = c.arg(3);
    }
    if (c.argc() >= 4 && !mkstream) {
      if (s == null) {
        throw new RedisException("ERR The XGROUP subcommand requires the key to exist. Note that for"
            + " CREATE you may want to use the MKSTREAM option to create an empty stream automatically.");
      }
      g = s.group(groupName);
      if (g == null && (opt.equals("setid") || opt.equals("createconsumer") || opt.equals("delconsumer"))) {
        throw new RedisException("NOGROUP No such consumer group '" + Args.str(groupName)
            + "' for key name '" + Args.str(c.arg(2)) + "'");
      }
    }
    byte[] key = c.argc() > 2 ? c.arg(2) : null;
    if (c.argc() == 2 && opt.equals("help")) {
      help(c.reply(), HELP);
    } else if (opt.equals("create") && c.argc() >= 5 && c.argc() <= 8) {
      StreamId id;
      if (Args.is(c.arg(4), "$")) {
        id = s == null ? StreamId.MIN : s.state.last;
      } else {
        id = StreamId.parseStrict(c.arg(4));
      }
      Batch b = c.db().batch();
      boolean created = false;
      if (s == null) {
        s = Stream.create(c.db(), key);
        created = true;
      } else if (s.group(groupName) != null) {
        throw new RedisException("BUSYGROUP Consumer Group name already exists");
      }
      s.saveGroup(b, groupName, new ConsumerGroup(id, entriesRead));
      if (created) {
        s.save(b);
      }
      b.commit();
      c.touched(key);
      c.reply().ok();
      StreamCommands.event(c, "xgroup-create", key);
    } else if (opt.equals("setid") && (c.argc() == 5 || c.argc() == 7)) {
      StreamId id = Args.is(c.arg(4), "$") ? s.state.last : StreamId.parse(c.arg(4), 0);
      g.lastId = id;
      g.entriesRead = entriesRead;
      Batch b = c.db().batch();
      s.saveGroup(b, groupName, g);
      b.commit();
      c.reply().ok();
      StreamCommands.event(c, "xgroup-setid", key);
    } else if (opt.equals("destroy") && c.argc() == 4) {
      if (g != null) {
        Batch b = c.db().batch();
        s.deleteGroup(b, groupName);
        b.commit();
        c.reply().integer(1);
        StreamCommands.event(c, "xgroup-destroy", key);
        c.signalReady(key); // blocked readers of the group get NOGROUP
      } else {
        c.reply().integer(0);
      }
    } else if (opt.equals("createconsumer") && c.argc() == 5) {
      ConsumerGroup.Consumer created = g.create(ConsumerGroup.name(c.arg(4)), StreamCommands.nowMs());
      if (created != null) {
        Batch b = c.db().batch();
        s.saveGroup(b, groupName, g);
        b.commit();
        StreamCommands.event(c, "xgroup-createconsumer", key);
      }
      c.reply().integer(created != null ? 1 : 0);
    } else if (opt.equals("delconsumer") && c.argc() == 5) {
      ConsumerGroup.Consumer consumer = g.lookup(ConsumerGroup.name(c.arg(4)), 0);
      long pending = 0;
      if (consumer != null) {
        pending = g.delete(consumer);
        Batch b = c.db().batch();
        s.saveGroup(b, groupName, g);
        b.commit();
        StreamCommands.event(c, "xgroup-delconsumer", key);
      }
      c.reply().integer(pending);
    } else {
      throw subcommandSyntax(c);
    }
  }

  private static void xack(CommandContext c) {
    Stream s = Stream.open(c.db(), c.arg(1));
    ConsumerGroup g = s == null ? null : s.group(c.arg(2));
    if (g == null) {
      c.reply().integer(0);
      return;
    }
    List<StreamId> ids = new ArrayList<>();
    for (int j = 3; j < c.argc(); j++) {
      ids.add(StreamId.parseStrict(c.arg(j)));
    }
    long acked = 0;
    for (StreamId id : ids) {
      if (g.ack(id)) {
        acked++;
      }
    }
    if (acked > 0) {
      Batch b = c.db().batch();
      s.saveGroup(b, c.arg(2), g);
      b.commit();
    }
    c.reply().integer(acked);
  }

  private static void xpending(CommandContext c) {
    boolean justInfo = c.argc() == 3;
    byte[] consumerName = null;
    StreamId start = null;
    StreamId end = null;
    long count = 0;
    long minIdle = 0;
    if (c.argc() != 3 && (c.argc() < 6 || c.argc() > 9)) {
      throw new RedisException(Errors.SYNTAX);
    }
    if (c.argc() >= 6) {
      int startIdx = 3;
      if (Args.is(c.arg(3), "idle")) {
        minIdle = Args.parseLong(c.arg(4));
        if (c.argc() < 8) {
          throw new RedisException(Errors.SYNTAX);
        }
        startIdx += 2;
      }
      count = Args.parseLong(c.arg(startIdx + 2));
      if (count < 0) {
        count = 0;
      }
      start = StreamId.parseInterval(c.arg(startIdx), 0, true);
      end = StreamId.parseInterval(c.arg(startIdx + 1), -1L, false);
      if (startIdx + 3 < c.argc()) {
        consumerName = c.arg(startIdx + 3);
      }
    }
    Stream s = Stream.open(c.db(), c.arg(1));
    ConsumerGroup g = s == null ? null : s.group(c.arg(2));
    if (g == null) {
      throw noGroup(c.arg(1), c.arg(2));
    }
    Reply r = c.reply();
    if (justInfo) {
      r.array(4);
      r.integer(g.pel.size());
      if (g.pel.isEmpty()) {
        r.nullBulk();
        r.nullBulk();
        r.nullArray();
        return;
      }
      r.bulk(g.pel.firstKey().bytes());
      r.bulk(g.pel.lastKey().bytes());
      List<ConsumerGroup.Consumer> with = new ArrayList<>();
      for (ConsumerGroup.Consumer consumer : g.consumers.values()) {
        if (!consumer.pel.isEmpty()) {
          with.add(consumer);
        }
      }
      r.array(with.size());
      for (ConsumerGroup.Consumer consumer : with) {
        r.array(2);
        r.bulk(ConsumerGroup.bytes(consumer.name));
        r.bulk(Args.bytes(Long.toString(consumer.pel.size())));
      }
      return;
    }
    Map<StreamId, ConsumerGroup.Nack> pel = g.pel;
    if (consumerName != null) {
      ConsumerGroup.Consumer consumer = g.lookup(ConsumerGroup.name(consumerName), 0);
      if (consumer == null) {
        r.emptyArray();
        return;
      }
      pel = consumer.pel;
    }
    long now = StreamCommands.nowMs();
    List<Map.Entry<StreamId, ConsumerGroup.Nack>> out = new ArrayList<>();
    if (start.compareTo(end) <= 0) {
      for (var e : ((java.util.NavigableMap<StreamId, ConsumerGroup.Nack>) pel)
          .subMap(start, true, end, true).entrySet()) {
        if (count == 0) {
          break;
        }
        if (minIdle != 0 && now - e.getValue().deliveryTime < minIdle) {
          continue;
        }
        out.add(e);
        count--;
      }
    }
    r.array(out.size());
    for (var e : out) {
      r.array(4);
      r.bulk(e.getKey().bytes());
      r.bulk(ConsumerGroup.bytes(e.getValue().consumer));
      r.integer(Math.max(0, now - e.getValue().deliveryTime));
      r.integer(e.getValue().deliveryCount);
    }
  }

  private static long optionLong(byte[] arg, String error) {
    Long v = Args.parseLongOrNull(arg);
    if (v == null) {
      throw new RedisException("ERR " + error);
    }
    return v;
  }

  private static void xclaim(CommandContext c) {
    Stream s = Stream.open(c.db(), c.arg(1));
    ConsumerGroup g = s == null ? null : s.group(c.arg(2));
    if (g == null) {
      throw noGroup(c.arg(1), c.arg(2));
    }
    long minIdle = optionLong(c.arg(4), "Invalid min-idle-time argument for XCLAIM");
    if (minIdle < 0) {
      minIdle = 0;
    }
    List<StreamId> ids = new ArrayList<>();
    int j = 5;
    for (; j < c.argc(); j++) {
      try {
        ids.add(StreamId.parseStrict(c.arg(j)));
      } catch (RedisException e) {
        break;
      }
    }
    long now = StreamCommands.nowMs();
    long deliveryTime = -1;
    long retryCount = -1;
    boolean force = false;
    boolean justId = false;
    StreamId lastId = StreamId.MIN;
    for (; j < c.argc(); j++) {
      int more = c.argc() - 1 - j;
      byte[] opt = c.arg(j);
      if (Args.is(opt, "force")) {
        force = true;
      } else if (Args.is(opt, "justid")) {
        justId = true;
      } else if (Args.is(opt, "idle") && more > 0) {
        j++;
        deliveryTime = now - optionLong(c.arg(j), "Invalid IDLE option argument for XCLAIM");
      } else if (Args.is(opt, "time") && more > 0) {
        j++;
        deliveryTime = optionLong(c.arg(j), "Invalid TIME option argument for XCLAIM");
      } else if (Args.is(opt, "retrycount") && more > 0) {
        j++;
        retryCount = optionLong(c.arg(j), "Invalid RETRYCOUNT option argument for XCLAIM");
      } else if (Args.is(opt, "lastid") && more > 0) {
        j++;
        lastId = StreamId.parseStrict(c.arg(j));
      } else {
        throw new RedisException("ERR Unrecognized XCLAIM option '" + Args.str(opt) + "'");
      }
    }
    boolean changed = false;
    if (lastId.compareTo(g.lastId) > 0) {
      g.lastId = lastId;
      changed = true;
    }
    if (deliveryTime != -1) {
      if (deliveryTime < 0 || deliveryTime > now) {
        deliveryTime = now;
      }
    } else {
      deliveryTime = now;
    }
    String name = ConsumerGroup.name(c.arg(3));
    ConsumerGroup.Consumer consumer = null;
    List<Object> reply = new ArrayList<>();
    for (StreamId id : ids) {
      ConsumerGroup.Nack nack = g.pel.get(id);
      Stream.Entry entry = s.entry(id);
      if (entry == null) {
        if (nack != null) {
          g.ack(id);
          changed = true;
        }
        continue;
      }
      boolean fresh = false;
      if (force && nack == null) {
        nack = new ConsumerGroup.Nack(null, now, 0);
        fresh = true;
      }
      if (nack == null) {
        continue;
      }
      if (!fresh && nack.consumer != null && minIdle != 0 && now - nack.deliveryTime < minIdle) {
        continue;
      }
      if (consumer == null) {
        consumer = StreamRead.consumer(c, s, g, name, now);
      }
      nack.deliveryTime = deliveryTime;
      if (retryCount >= 0) {
        nack.deliveryCount = retryCount;
      } else if (!justId) {
        nack.deliveryCount++;
      }
      g.assign(id, nack, consumer);
      reply.add(justId ? id : entry);
      changed = true;
    }
    if (changed || consumer != null) {
      Batch b = c.db().batch();
      s.saveGroup(b, c.arg(2), g);
      b.commit();
    }
    Reply r = c.reply();
    r.array(reply.size());
    for (Object o : reply) {
      if (o instanceof StreamId id) {
        r.bulk(id.bytes());
      } else {
        StreamCommands.entry(r, (Stream.Entry) o);
      }
    }
  }

  private static void xautoclaim(CommandContext c) {
    long minIdle = optionLong(c.arg(4), "Invalid min-idle-time argument for XAUTOCLAIM");
    if (minIdle < 0) {
      minIdle = 0;
    }
    StreamId start = StreamId.parseInterval(c.arg(5), 0, true);
    long count = 100;
    boolean justId = false;
    for (int j = 6; j < c.argc(); j++) {
      int more = c.argc() - 1 - j;
      if (Args.is(c.arg(j), "count") && more > 0) {
        Long v = Args.parseLongOrNull(c.arg(j + 1));
        long max = Long.MAX_VALUE / 16;
        if (v == null || v < 1 || v > max) {
          throw new RedisException("ERR COUNT must be > 0");
        }
        count = v;
        j++;
      } else if (Args.is(c.arg(j), "justid")) {
        justId = true;
      } else {
        throw new RedisException(Errors.SYNTAX);
      }
    }
    Stream s = Stream.open(c.db(), c.arg(1));
    ConsumerGroup g = s == null ? null : s.group(c.arg(2));
    if (g == null) {
      throw noGroup(c.arg(1), c.arg(2));
    }
    long attempts = count * 10;
    long now = StreamCommands.nowMs();
    String name = ConsumerGroup.name(c.arg(3));
    ConsumerGroup.Consumer consumer = null;
    List<Object> claimed = new ArrayList<>();
    List<StreamId> deleted = new ArrayList<>();
    boolean changed = false;
    Iterator<Map.Entry<StreamId, ConsumerGroup.Nack>> it =
        new ArrayList<>(g.pel.tailMap(start, true).entrySet()).iterator();
    StreamId next = null;
    while (true) {
      if (!(attempts-- > 0 && count > 0)) {
        next = it.hasNext() ? it.next().getKey() : null;
        break;
      }
      if (!it.hasNext()) {
        break;
      }
      var e = it.next();
      StreamId id = e.getKey();
      ConsumerGroup.Nack nack = e.getValue();
      Stream.Entry entry = s.entry(id);
      if (entry == null) {
        g.ack(id);
        deleted.add(id);
        changed = true;
        count--;
        continue;
      }
      if (minIdle != 0 && now - nack.deliveryTime < minIdle) {
        continue;
      }
      if (consumer == null) {
        consumer = StreamRead.consumer(c, s, g, name, now);
      }
      nack.deliveryTime = now;
      if (!justId) {
        nack.deliveryCount++;
      }
      g.assign(id, nack, consumer);
      claimed.add(justId ? id : entry);
      changed = true;
      count--;
    }
    if (changed || consumer != null) {
      Batch b = c.db().batch();
      s.saveGroup(b, c.arg(2), g);
      b.commit();
    }
    Reply r = c.reply();
    r.array(3);
    r.bulk((next == null ? StreamId.MIN : next).bytes());
    r.array(claimed.size());
    for (Object o : claimed) {
      if (o instanceof StreamId id) {
        r.bulk(id.bytes());
      } else {
        StreamCommands.entry(r, (Stream.Entry) o);
      }
    }
    r.array(deleted.size());
    for (StreamId id : deleted) {
      r.bulk(id.bytes());
    }
  }
}
