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
   * Elements of a collection value about to become cells, refused past {@code maxItems} (the
   * node's {@link io.cassette.cql.language.parser.StatementLimits#maxCollectionItems}).
   */
  static List<byte[]> items(byte[] value, boolean map, int maxItems) {
    List<byte[]> items = CollectionCodec.unpack(value, map);
    int n = map ? items.size() / 2 : items.size();
    if (n > maxItems) {
      throw io.cassette.cql.language.Errors.invalid("Collection too large: " + n + " elements in one write, more"
          + " than " + maxItems + " on this node");
    }
    return items;
  }

  /** The cells of a whole non-frozen value the node itself built (no element bound). */
  public static List<Cell> explode(String column, CqlType type, byte[] value, long ts, int ttl, long now) {
    return explode(column, type, value, ts, ttl, now, Integer.MAX_VALUE);
  }

  /**
   * The cells of a whole non-frozen value (without the deletion of older elements); more than
   * {@code maxItems} elements are refused.
   */
  public static List<Cell> explode(String column, CqlType type, byte[] value, long ts, int ttl, long now,
                                   int maxItems) {
    List<Cell> out = new ArrayList<>();
    if (type instanceof ListType) {
      for (byte[] e : items(value, false, maxItems)) {
        out.add(cell(column, appendPath(), e, ts, ttl, now));
      }
    } else if (type instanceof SetType s) {
      for (byte[] e : items(value, false, maxItems)) {
        out.add(cell(column, ComparableEncoding.encode(s.element(), e, false), new byte[0], ts, ttl, now));
      }
    } else if (type instanceof MapType m) {
      List<byte[]> kv = items(value, true, maxItems);
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
