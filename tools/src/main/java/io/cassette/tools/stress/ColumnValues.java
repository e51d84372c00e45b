package io.cassette.tools.stress;

import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.DataTypes;
import com.datastax.oss.driver.api.core.type.ListType;
import com.datastax.oss.driver.api.core.type.MapType;
import com.datastax.oss.driver.api.core.type.SetType;
import com.datastax.oss.driver.api.core.uuid.Uuids;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.UUID;

/**
 * Values of a user profile's columns, generated from a random source seeded by the partition
 * seed, the row and the column, so the same seed gives the same values for a later query.
 * The Java types are the ones the driver's codecs expect for each CQL type.
 */
public final class ColumnValues {
  /** Elements of a generated collection, at most. */
  static final int MAX_COLLECTION_SIZE = 4;
  private static final String ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

  private ColumnValues() {}

  /** A random source for one column of one row of one partition. */
  public static SplittableRandom random(long seed, int row, String column) {
    long s = KeyValueGenerator.mix(seed * 31 + row);
    return new SplittableRandom(KeyValueGenerator.mix(s ^ column.hashCode()));
  }

  /**
   * A value of {@code type}.
   *
   * @param size length of text and blob values (collections: element count, capped)
   * @throws ArgumentException for a type the tool cannot generate (counter, UDT, tuple ...)
   */
  public static Object generate(DataType type, int size, SplittableRandom r, String column) {
    if (type.equals(DataTypes.TEXT) || type.equals(DataTypes.ASCII)) {
      StringBuilder b = new StringBuilder(size);
      for (int i = 0; i < size; i++) {
        b.append(ALPHABET.charAt(r.nextInt(ALPHABET.length())));
      }
      return b.toString();
    }
    if (type.equals(DataTypes.BLOB)) {
      byte[] bytes = new byte[size];
      for (int i = 0; i < size; i++) {
        bytes[i] = (byte) r.nextInt(256);
      }
      return ByteBuffer.wrap(bytes);
    }
    if (type.equals(DataTypes.INT)) {
      return r.nextInt();
    }
    if (type.equals(DataTypes.BIGINT)) {
      return r.nextLong();
    }
    if (type.equals(DataTypes.SMALLINT)) {
      return (short) r.nextInt(Short.MIN_VALUE, Short.MAX_VALUE + 1);
    }
    if (type.equals(DataTypes.TINYINT)) {
      return (byte) r.nextInt(Byte.MIN_VALUE, Byte.MAX_VALUE + 1);
    }
    if (type.equals(DataTypes.VARINT)) {
      return BigInteger.valueOf(r.nextLong());
    }
    if (type.equals(DataTypes.FLOAT)) {
      return r.nextFloat() * 1000;
    }
    if (type.equals(DataTypes.DOUBLE)) {
      return r.nextDouble() * 1_000_000;
    }
    if (type.equals(DataTypes.DECIMAL)) {
      return BigDecimal.valueOf(r.nextLong(), 4);
    }
    if (type.equals(DataTypes.BOOLEAN)) {
      return r.nextBoolean();
    }
    if (type.equals(DataTypes.UUID)) {
      return new UUID(r.nextLong(), r.nextLong());
    }
    if (type.equals(DataTypes.TIMEUUID)) {
      return Uuids.startOf(r.nextLong(0, 4_102_444_800_000L));
    }
    if (type.equals(DataTypes.TIMESTAMP)) {
      return Instant.ofEpochMilli(r.nextLong(0, 4_102_444_800_000L));
    }
    if (type.equals(DataTypes.DATE)) {
      return LocalDate.ofEpochDay(r.nextLong(0, 50_000));
    }
    if (type.equals(DataTypes.TIME)) {
      return LocalTime.ofNanoOfDay(r.nextLong(0, 86_400_000_000_000L));
    }
    if (type.equals(DataTypes.INET)) {
      byte[] a = new byte[4];
      for (int i = 0; i < 4; i++) {
        a[i] = (byte) r.nextInt(256);
      }
      try {
        return InetAddress.getByAddress(a);
      } catch (UnknownHostException e) {
        throw new IllegalStateException(e);
      }
    }
    int elements = Math.max(1, Math.min(size, MAX_COLLECTION_SIZE));
    if (type instanceof ListType l) {
      List<Object> list = new ArrayList<>();
      for (int i = 0; i < elements; i++) {
        list.add(generate(l.getElementType(), 8, r, column));
      }
      return list;
    }
    if (type instanceof SetType s) {
      Set<Object> set = new LinkedHashSet<>();
      for (int i = 0; i < elements; i++) {
        set.add(generate(s.getElementType(), 8, r, column));
      }
      return set;
    }
    if (type instanceof MapType m) {
      Map<Object, Object> map = new LinkedHashMap<>();
      for (int i = 0; i < elements; i++) {
        map.put(generate(m.getKeyType(), 8, r, column), generate(m.getValueType(), 8, r, column));
      }
      return map;
    }
    throw new ArgumentException("Column '" + column + "' has type " + type.asCql(true, true)
        + ", which the user profile cannot generate values for");
  }
}
