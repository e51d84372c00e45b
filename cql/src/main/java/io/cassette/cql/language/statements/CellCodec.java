package io.cassette.cql.language.statements;

import io.cassette.cql.CqlType;
import io.cassette.cql.CqlType.ListType;
import io.cassette.cql.CqlType.MapType;
import io.cassette.cql.CqlType.SetType;
import io.cassette.cql.CqlType.UdtType;
import io.cassette.cql.language.types.CollectionCodec;
import io.cassette.cql.language.types.ComparableEncoding;
import io.cassette.storage.Cell;
import io.cassette.storage.Row;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Non-frozen collections and UDTs as cells with paths, and back.
 *
 * <pre>
 * list element : path = [8 bytes order, sign-flipped][8 bytes node], value = element
 * set element  : path = comparable(element),                 value = empty
 * map entry    : path = comparable(key),                     value = value
 * udt field    : path = [u16 field index],                   value = field value
 * </pre>
 * List order values increase for appends and decrease (below every append) for prepends.
 */
public final class CellCodec {
  private static final AtomicLong LAST = new AtomicLong();
  private static final long NODE = new SecureRandom().nextLong();

  private CellCodec() {}

  /** A path after every existing list element (append). */
  public static byte[] appendPath() {
    long v = LAST.updateAndGet(l -> Math.max(l + 1, System.currentTimeMillis() * 1_000_000L));
    return listPath(v);
  }

  /** A path before every existing list element (prepend). */
  public static byte[] prependPath() {
    long v = LAST.updateAndGet(l -> Math.max(l + 1, System.currentTimeMillis() * 1_000_000L));
    return listPath(-v);
  }

  private static byte[] listPath(long order) {
    return ByteBuffer.allocate(16).putLong(order ^ Long.MIN_VALUE).putLong(NODE).array();
  }

  /**
   * Most elements one write may give a non-frozen collection: each becomes a cell (~100+ bytes
   * of heap in the mutation, its serialization and the memtable), so a 2 MiB list<int> value
   * (262,000 elements) took a 64 MiB node's heap. heap/2048, at most 65,535 (protocol v2's
   * bound on a collection), at least 1,024: 32,768 at 64 MiB. Cassandra 5.0's guardrail for
   * this, items_per_collection_fail_threshold, is off by default.
   */
  public static volatile int MAX_COLLECTION_ITEMS = defaultMaxCollectionItems();

  /** heap/2048, 1,024..65,535; {@code items_per_collection_fail_threshold} replaces it (process-wide). */
  public static int defaultMaxCollectionItems() {
    return (int) Math.max(1024, Math.min(65_535, Runtime.getRuntime().maxMemory() / 2048));
  }

  /** Elements of a collection value about to become cells, refused past {@link #MAX_COLLECTION_ITEMS}. */
  static List<byte[]> items(byte[] value, boolean map) {
    List<byte[]> items = CollectionCodec.unpack(value, map);
    int n = map ? items.size() / 2 : items.size();
    if (n > MAX_COLLECTION_ITEMS) {
      throw io.cassette.cql.language.Errors.invalid("Collection too large: " + n + " elements in one write, more"
          + " than " + MAX_COLLECTION_ITEMS + " on this node");
    }
    return items;
  }

  /** The cells of a whole non-frozen value (without the deletion of older elements). */
  public static List<Cell> explode(String column, CqlType type, byte[] value, long ts, int ttl, long now) {
    List<Cell> out = new ArrayList<>();
    if (type instanceof ListType) {
      for (byte[] e : items(value, false)) {
        out.add(cell(column, appendPath(), e, ts, ttl, now));
      }
    } else if (type instanceof SetType s) {
      for (byte[] e : items(value, false)) {
        out.add(cell(column, ComparableEncoding.encode(s.element(), e, false), new byte[0], ts, ttl, now));
      }
    } else if (type instanceof MapType m) {
      List<byte[]> kv = items(value, true);
      for (int i = 0; i < kv.size(); i += 2) {
        out.add(cell(column, ComparableEncoding.encode(m.key(), kv.get(i), false), kv.get(i + 1), ts, ttl, now));
      }
    } else if (type instanceof UdtType u) {
      List<byte[]> fs = CollectionCodec.unpackFields(value, u.fieldTypes().size());
      for (int i = 0; i < fs.size(); i++) {
        if (fs.get(i) != null) {
          out.add(cell(column, fieldPath(i), fs.get(i), ts, ttl, now));
        }
      }
    }
    return out;
  }

  public static byte[] fieldPath(int index) {
    return new byte[] {(byte) (index >>> 8), (byte) index};
  }

  public static Cell cell(String column, byte[] path, byte[] value, long ts, int ttl, long now) {
    Cell c = ttl > 0 ? Cell.expiring(column, value, ts, ttl, now) : Cell.live(column, value, ts);
    return path == null ? c : c.withPath(path);
  }

  /** The live element cells of {@code column} in {@code row} (sorted by path). */
  public static List<Cell> elements(Row row, String column) {
    List<Cell> out = new ArrayList<>();
    if (row == null) {
      return out;
    }
    for (Cell c : row.cells()) {
      if (c.column().equals(column) && c.path() != null && !c.isTombstone()) {
        out.add(c);
      }
    }
    return out;
  }

  /** The serialized value of a non-frozen column from its element cells; null when empty. */
  public static byte[] assemble(CqlType type, List<Cell> cells) {
    if (cells.isEmpty()) {
      return null;
    }
    List<byte[]> a = new ArrayList<>();
    List<byte[]> b = new ArrayList<>();
    if (type instanceof ListType) {
      for (Cell c : cells) {
        a.add(c.value());
      }
      return CollectionCodec.pack(a);
    }
    if (type instanceof SetType s) {
      for (Cell c : cells) {
        a.add(ComparableEncoding.decodeOne(s.element(), c.path()));
      }
      return CollectionCodec.pack(a);
    }
    if (type instanceof MapType m) {
      for (Cell c : cells) {
        a.add(ComparableEncoding.decodeOne(m.key(), c.path()));
        b.add(c.value());
      }
      return CollectionCodec.packMap(a, b);
    }
    if (type instanceof UdtType u) {
      byte[][] fields = new byte[u.fieldTypes().size()][];
      for (Cell c : cells) {
        int i = ((c.path()[0] & 0xFF) << 8) | (c.path()[1] & 0xFF);
        if (i < fields.length) {
          fields[i] = c.value();
        }
      }
      int last = fields.length;
      List<byte[]> fs = new ArrayList<>();
      for (int i = 0; i < last; i++) {
        fs.add(fields[i]);
      }
      return CollectionCodec.packFields(fs);
    }
    throw new IllegalArgumentException("not a multi-cell type: " + type);
  }
}
