package io.cassette.tools.stress;

import java.util.Locale;

/** The stress commands: the predefined workloads on keyspace1, {@code mixed} and {@code user}. */
public enum Command {
  WRITE("standard1", true),
  READ("standard1", false),
  COUNTER_WRITE("counter1", true),
  COUNTER_READ("counter1", false),
  MIXED("standard1", false),
  USER(null, false);

  /** The predefined table the command works on; null for a user profile. */
  public final String table;
  /** Whether the command only writes: it creates the schema, and ramps pause between steps. */
  public final boolean updates;

  Command(String table, boolean updates) {
    this.table = table;
    this.updates = updates;
  }

  /** The name on the command line: {@code write}, {@code counter_read}, ... */
  public String cliName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The command named {@code name} (case-insensitive; "counterwrite" too), or null. */
  public static Command byName(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    for (Command c : values()) {
      if (c.cliName().equals(n) || c.cliName().replace("_", "").equals(n)) {
        return c;
      }
    }
    return null;
  }
}
