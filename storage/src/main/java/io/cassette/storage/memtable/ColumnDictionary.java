package io.cassette.storage.memtable;

import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The column names of one memtable, numbered in the order they were first written, so a
 * packed row ({@link PackedRow}) holds a one- or two-byte number instead of a name and a
 * decoded cell shares the one {@code String} per name.
 *
 * <p>Thread-safety: {@link #id} may be called by many writers; {@link #name} by any reader.
 * A name is in {@link #names} (published by a volatile write) before {@link #id} returns its
 * number, so a reader that saw a row (itself published after it was encoded) sees the name.
 */
final class ColumnDictionary {
  /** Heap bytes a new name costs here besides its UTF-8 array: its two array slots, map node, boxed id (the String is the schema's). */
  static final int BYTES_PER_NAME = 4 + 32 + 16 + 4;

  private final ConcurrentHashMap<String, Integer> ids = new ConcurrentHashMap<>();
  /** Index = id. Replaced, never changed in place, once a slot is visible. */
  private volatile String[] names = new String[0];
  /** Each name's UTF-8, index = id, published with {@link #names} (written before it). */
  private volatile byte[][] utf8 = new byte[0][];

  /** The number of {@code column}; adds it when new ({@code added[0]} grows by its heap bytes). */
  int id(String column, long[] added) {
    String[] n = names;
    // Identity first: front doors pass the schema's own String, and a table has few columns.
    for (int i = 0, max = Math.min(n.length, 16); i < max; i++) {
      if (n[i] == column) {
        return i;
      }
    }
    Integer id = ids.get(column);
    if (id != null) {
      return id;
    }
    synchronized (this) {
      id = ids.get(column);
      if (id != null) {
        return id;
      }
      String[] grown = Arrays.copyOf(names, names.length + 1);
      grown[grown.length - 1] = column;
      byte[][] grownUtf8 = Arrays.copyOf(utf8, grown.length);
      grownUtf8[grown.length - 1] = column.getBytes(java.nio.charset.StandardCharsets.UTF_8);
      utf8 = grownUtf8; // before names: a reader that sees the name sees its bytes
      names = grown; // before the id is visible in the map or in any row
      ids.put(column, grown.length - 1);
      added[0] += BYTES_PER_NAME + ((16 + grownUtf8[grown.length - 1].length + 7) & ~7);
      return grown.length - 1;
    }
  }

  String name(int id) {
    return names[id];
  }

  /** The UTF-8 of {@link #name}; the caller must not change it. */
  byte[] utf8(int id) {
    return utf8[id];
  }
}
