package io.cassette.resp.stream;

import static io.cassette.resp.command.CommandSpec.READONLY;

import io.cassette.resp.command.Args;
import io.cassette.resp.command.CommandContext;
import io.cassette.resp.command.CommandTable;
import io.cassette.resp.command.Errors;
import io.cassette.resp.command.RedisException;
import io.cassette.resp.protocol.Reply;
import java.util.List;
import java.util.Map;

/** XINFO STREAM [FULL [COUNT n]], XINFO GROUPS, XINFO CONSUMERS, XINFO HELP (xinfoCommand). */
final class StreamInfoCommand {
  private StreamInfoCommand() {}

  static void register(CommandTable t) {
    t.add("xinfo", -2, READONLY, 2, 2, 1, StreamInfoCommand::xinfo);
  }

  private static final String[] HELP = {
      "XINFO <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
      "CONSUMERS <key> <groupname>",
      "    Show consumers of <groupname>.",
      "GROUPS <key>",
      "    Show the stream consumer groups.",
      "STREAM <key> [FULL [COUNT <count>]",
      "    Show information about the stream.",
      "HELP",
      "    Prints this help."};

  private static RedisException syntax(CommandContext c) {
    return new RedisException("ERR unknown subcommand or wrong number of arguments for '"
        + Args.str(c.arg(1)) + "'. Try XINFO HELP.");
  }

  private static final Map<String, Integer> ARITIES = Map.of("consumers", 4, "groups", 3,
      "stream", -3, "help", 2);

  private static void xinfo(CommandContext c) {
    StreamCommands.checkSubcommand(c, "XINFO", ARITIES);
    if (Args.is(c.arg(1), "help")) {
      if (c.argc() != 2) {
        throw syntax(c);
      }
      StreamGroupCommands.help(c.reply(), HELP);
      return;
    } else if (c.argc() < 3) {
      throw syntax(c);
    }
    Stream s = Stream.open(c.db(), c.arg(2));
    if (s == null) {
      throw new RedisException(Errors.NO_SUCH_KEY);
    }
    Reply r = c.reply();
    if (Args.is(c.arg(1), "consumers") && c.argc() == 4) {
      ConsumerGroup g = s.group(c.arg(3));
      if (g == null) {
        throw new RedisException("NOGROUP No such consumer group '" + Args.str(c.arg(3))
            + "' for key name '" + Args.str(c.arg(2)) + "'");
      }
      long now = StreamCommands.nowMs();
      r.array(g.consumers.size());
      for (ConsumerGroup.Consumer consumer : g.consumers.values()) {
        r.map(3);
        r.bulk("name");
        r.bulk(ConsumerGroup.bytes(consumer.name));
        r.bulk("pending");
        r.integer(consumer.pel.size());
        r.bulk("idle");
        r.integer(Math.max(0, now - consumer.seenTime));
      }
    } else if (Args.is(c.arg(1), "groups") && c.argc() == 3) {
      List<Map.Entry<byte[], ConsumerGroup>> groups = s.groups();
      r.array(groups.size());
      for (Map.Entry<byte[], ConsumerGroup> e : groups) {
        ConsumerGroup g = e.getValue();
        r.map(6);
        r.bulk("name");
        r.bulk(e.getKey());
        r.bulk("consumers");
        r.integer(g.consumers.size());
        r.bulk("pending");
        r.integer(g.pel.size());
        r.bulk("last-delivered-id");
        r.bulk(g.lastId.bytes());
        entriesReadAndLag(r, s, g);
      }
    } else if (Args.is(c.arg(1), "stream")) {
      stream(c, s);
    } else {
      throw syntax(c);
    }
  }

  private static void entriesReadAndLag(Reply r, Stream s, ConsumerGroup g) {
    r.bulk("entries-read");
    if (g.entriesRead != ConsumerGroup.INVALID_ENTRIES_READ) {
      r.integer(g.entriesRead);
    } else {
      r.nullBulk();
    }
    r.bulk("lag");
    Long lag = s.lag(g);
    if (lag == null) {
      r.nullBulk();
    } else {
      r.integer(lag);
    }
  }

  private static void stream(CommandContext c, Stream s) {
    boolean full = false;
    long count = 10;
    int optc = c.argc() - 3;
    if (optc != 0) {
      if (optc != 1 && optc != 3) {
        throw syntax(c);
      }
      if (!Args.is(c.arg(3), "full")) {
        throw syntax(c);
      }
      full = true;
      if (optc == 3) {
        if (!Args.is(c.arg(4), "count")) {
          throw syntax(c);
        }
        count = Args.parseLong(c.arg(5));
        if (count < 0) {
          count = 10;
        }
      }
    }
    Reply r = c.reply();
    long nodes = s.nodes();
    r.map(full ? 9 : 10);
    r.bulk("length");
    r.integer(s.length());
    r.bulk("radix-tree-keys");
    r.integer(nodes);
    r.bulk("radix-tree-nodes");
    r.integer(nodes == 0 ? 1 : nodes + 1);
    r.bulk("last-generated-id");
    r.bulk(s.state.last.bytes());
    r.bulk("max-deleted-entry-id");
    r.bulk(s.state.maxDeleted.bytes());
    r.bulk("entries-added");
    r.integer(s.state.entriesAdded);
    r.bulk("recorded-first-entry-id");
    r.bulk(s.state.first.bytes());
    if (!full) {
      r.bulk("groups");
      r.integer(s.groupCount());
      List<Stream.Entry> first = s.range(StreamId.MIN, StreamId.MAX, false, 1);
      r.bulk("first-entry");
      if (first.isEmpty()) {
        r.nullBulk();
      } else {
        StreamCommands.entry(r, first.get(0));
      }
      List<Stream.Entry> last = s.range(StreamId.MIN, StreamId.MAX, true, 1);
      r.bulk("last-entry");
      if (last.isEmpty()) {
        r.nullBulk();
      } else {
        StreamCommands.entry(r, last.get(0));
      }
      return;
    }
    r.bulk("entries");
    StreamCommands.entries(r, s.range(StreamId.MIN, StreamId.MAX, false, count));
    r.bulk("groups");
    List<Map.Entry<byte[], ConsumerGroup>> groups = s.groups();
    r.array(groups.size());
    for (Map.Entry<byte[], ConsumerGroup> e : groups) {
      ConsumerGroup g = e.getValue();
      r.map(7);
      r.bulk("name");
      r.bulk(e.getKey());
      r.bulk("last-delivered-id");
      r.bulk(g.lastId.bytes());
      entriesReadAndLag(r, s, g);
      r.bulk("pel-count");
      r.integer(g.pel.size());
      r.bulk("pending");
      int n = (int) (count == 0 ? g.pel.size() : Math.min(count, g.pel.size()));
      r.array(n);
      int i = 0;
      for (var p : g.pel.entrySet()) {
        if (i++ >= n) {
          break;
        }
        r.array(4);
        r.bulk(p.getKey().bytes());
        r.bulk(ConsumerGroup.bytes(p.getValue().consumer));
        r.integer(p.getValue().deliveryTime);
        r.integer(p.getValue().deliveryCount);
      }
      r.bulk("consumers");
      r.array(g.consumers.size());
      for (ConsumerGroup.Consumer consumer : g.consumers.values()) {
        r.map(4);
        r.bulk("name");
        r.bulk(ConsumerGroup.bytes(consumer.name));
        r.bulk("seen-time");
        r.integer(consumer.seenTime);
        r.bulk("pel-count");
        r.integer(consumer.pel.size());
        r.bulk("pending");
        int m = (int) (count == 0 ? consumer.pel.size() : Math.min(count, consumer.pel.size()));
        r.array(m);
        int k = 0;
        for (var p : consumer.pel.entrySet()) {
          if (k++ >= m) {
            break;
          }
          r.array(3);
          r.bulk(p.getKey().bytes());
          r.integer(p.getValue().deliveryTime);
          r.integer(p.getValue().deliveryCount);
        }
      }
    }
  }
}
