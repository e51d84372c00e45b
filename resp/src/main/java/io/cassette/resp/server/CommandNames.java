package io.cassette.resp.server;

import io.cassette.resp.command.CommandSpec;
import io.cassette.resp.command.CommandTable;
import java.nio.charset.StandardCharsets;

/**
 * Finds a command's spec from the name bytes a client sent, in any letter case, without
 * building a lower-case String per request (the dispatcher's lookup used to allocate two
 * objects per command). An open-addressing table over the specs of a {@link CommandTable},
 * which is read-only after start; built once per server. Immutable, thread-safe.
 */
public final class CommandNames {
  private final byte[][] names;
  private final CommandSpec[] specs;
  private final int mask;

  public CommandNames(CommandTable table) {
    int size = Integer.highestOneBit(Math.max(16, table.size() * 4) - 1) << 1; // load <= 1/4
    names = new byte[size][];
    specs = new CommandSpec[size];
    mask = size - 1;
    for (CommandSpec spec : table.all()) {
      byte[] name = spec.name().getBytes(StandardCharsets.US_ASCII);
      int i = hash(name) & mask;
      while (names[i] != null) {
        i = (i + 1) & mask;
      }
      names[i] = name;
      specs[i] = spec;
    }
  }

  /** The spec named {@code name} (ASCII letters in any case), or null. */
  public CommandSpec get(byte[] name) {
    for (int i = hash(name) & mask; names[i] != null; i = (i + 1) & mask) {
      if (equalsIgnoreCase(names[i], name)) {
        return specs[i];
      }
    }
    return null;
  }

  private static int lower(byte b) {
    return b >= 'A' && b <= 'Z' ? b + 32 : b;
  }

  private static int hash(byte[] name) {
    int h = name.length;
    for (byte b : name) {
      h = 31 * h + lower(b);
    }
    return h ^ (h >>> 16);
  }

  /** {@code lowerName} is already lower case. */
  private static boolean equalsIgnoreCase(byte[] lowerName, byte[] name) {
    if (lowerName.length != name.length) {
      return false;
    }
    for (int i = 0; i < name.length; i++) {
      if (lowerName[i] != lower(name[i])) {
        return false;
      }
    }
    return true;
  }
}
