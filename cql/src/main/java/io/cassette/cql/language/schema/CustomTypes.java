package io.cassette.cql.language.schema;

import io.cassette.cql.CqlType;
import io.cassette.cql.language.types.Types;
import java.util.Map;

/**
 * Custom types written as Cassandra marshal class names ({@code 'CompositeType(Int32Type,
 * UTF8Type)'}), normalised as Cassandra's TypeParser does: every class qualified with
 * {@code org.apache.cassandra.db.marshal.}, no spaces, and a class that is a CQL native type
 * (BytesType, Int32Type, UTF8Type...) becomes that type. CompositeType and DynamicCompositeType
 * values are read and written as blobs (their serialized form), as Cassandra's drivers see them.
 */
public final class CustomTypes {
  static final String MARSHAL = "org.apache.cassandra.db.marshal.";

  /** Marshal classes that are CQL native types (Cassandra's CQL3Type.Native). */
  private static final Map<String, String> NATIVE = Map.ofEntries(
      Map.entry("AsciiType", "ascii"), Map.entry("LongType", "bigint"), Map.entry("BytesType", "blob"),
      Map.entry("BooleanType", "boolean"), Map.entry("CounterColumnType", "counter"),
      Map.entry("DecimalType", "decimal"), Map.entry("DoubleType", "double"), Map.entry("DurationType", "duration"),
      Map.entry("FloatType", "float"), Map.entry("InetAddressType", "inet"), Map.entry("Int32Type", "int"),
      Map.entry("ShortType", "smallint"), Map.entry("UTF8Type", "text"), Map.entry("TimestampType", "timestamp"),
      Map.entry("SimpleDateType", "date"), Map.entry("TimeType", "time"), Map.entry("UUIDType", "uuid"),
      Map.entry("TimeUUIDType", "timeuuid"), Map.entry("ByteType", "tinyint"), Map.entry("IntegerType", "varint"));

  private CustomTypes() {}

  /** The type a custom class string denotes. */
  public static CqlType resolve(String cls) {
    String n = normalize(cls);
    if (n.startsWith(MARSHAL) && n.indexOf('(') < 0) {
      String nativeName = NATIVE.get(n.substring(MARSHAL.length()));
      if (nativeName != null) {
        return Types.nativeNamed(nativeName);
      }
    }
    return new CqlType.CustomType(n);
  }

  /** Qualifies every class name and drops whitespace. */
  public static String normalize(String cls) {
    StringBuilder out = new StringBuilder();
    StringBuilder word = new StringBuilder();
    for (int i = 0; i <= cls.length(); i++) {
      char ch = i < cls.length() ? cls.charAt(i) : '\0';
      boolean nameChar = i < cls.length() && (Character.isLetterOrDigit(ch) || ch == '.' || ch == '_' || ch == '$');
      if (nameChar) {
        word.append(ch);
        continue;
      }
      if (word.length() > 0) {
        // "s=>UTF8Type": an alias of DynamicCompositeType stays as written
        boolean alias = i + 1 < cls.length() && ch == '=' && cls.charAt(i + 1) == '>';
        String w = word.toString();
        out.append(alias || w.indexOf('.') >= 0 || !Character.isUpperCase(w.charAt(0)) ? w : MARSHAL + w);
        word.setLength(0);
      }
      if (i < cls.length() && !Character.isWhitespace(ch)) {
        out.append(ch);
      }
    }
    return out.toString();
  }
}
