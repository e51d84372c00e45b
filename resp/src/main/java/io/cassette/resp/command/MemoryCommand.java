package io.cassette.resp.command;

import static io.cassette.resp.command.CommandSpec.READONLY;

import io.cassette.resp.keyspace.KeyMeta;
import io.cassette.resp.keyspace.KeyType;
import java.util.Locale;

/**
 * MEMORY USAGE and MEMORY HELP. Cassette keeps values in its storage engine, not in Redis's
 * objects, so USAGE is an estimate in Redis's terms from the metadata alone (no element is
 * read): a string's bytes plus object overhead, a collection's element count times a typical
 * entry. Tools (and Redis's own tests) only need a positive size for an existing key.
 */
final class MemoryCommand {
  private MemoryCommand() {}

  /** Redis's robj + dict entry + sds headers, roughly. */
  private static final long KEY_OVERHEAD = 56;
  private static final long ENTRY_BYTES = 40;

  static void register(CommandTable t) {
    t.add("memory", -2, READONLY, 2, 2, 1, MemoryCommand::memory);
  }

  private static void memory(CommandContext c) {
    String sub = c.argString(1).toLowerCase(Locale.ROOT);
    switch (sub) {
      case "usage" -> {
        if (c.argc() != 3 && !(c.argc() == 5 && Args.is(c.arg(3), "samples"))) {
          throw new RedisException(c.argc() < 3 ? Errors.wrongArity("memory|usage")
              : Errors.SYNTAX);
        }
        if (c.argc() == 5) {
          Args.parseLong(c.arg(4));
        }
        KeyMeta m = c.db().meta(c.arg(2));
        if (m == null) {
          c.reply().nullBulk();
          return;
        }
        long bytes = KEY_OVERHEAD + c.arg(2).length;
        bytes += m.type == KeyType.STRING ? m.value.length : m.size * ENTRY_BYTES;
        c.reply().integer(bytes);
      }
      case "help" -> {
        String[] lines = {"MEMORY <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
            "USAGE <key> [SAMPLES <count>]",
            "    Return memory in bytes used by <key> and its value. Nested values are",
            "    sampled up to <count> times (default: 5, 0 means sample all).",
            "HELP", "    Print this help."};
        c.reply().array(lines.length);
        for (String l : lines) {
          c.reply().status(l);
        }
      }
      default -> throw new RedisException(Errors.unknownSubcommand(c.argString(1), "MEMORY"));
    }
  }
}
