package io.cassette.cql.language.types;

import io.cassette.cql.CqlType;
import io.cassette.cql.CqlType.ListType;
import io.cassette.cql.CqlType.MapType;
import io.cassette.cql.CqlType.Native;
import io.cassette.cql.CqlType.NativeType;
import io.cassette.cql.CqlType.SetType;
import io.cassette.cql.CqlType.TupleType;
import io.cassette.cql.CqlType.UdtType;
import io.cassette.cql.CqlType.VectorType;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/** Names of CQL types: native type lookup and the CQL text Cassandra writes in system_schema. */
public final class Types {
  private static final Map<Native, NativeType> NATIVE = new EnumMap<>(Native.class);

  static {
    for (Native n : Native.values()) {
      NATIVE.put(n, new NativeType(n));
    }
  }

  public static final NativeType TEXT = of(Native.TEXT);
  public static final NativeType ASCII = of(Native.ASCII);
  public static final NativeType INT = of(Native.INT);
  public static final NativeType BIGINT = of(Native.BIGINT);
  public static final NativeType BOOLEAN = of(Native.BOOLEAN);
  public static final NativeType BLOB = of(Native.BLOB);
  public static final NativeType UUID = of(Native.UUID);
  public static final NativeType TIMEUUID = of(Native.TIMEUUID);
  public static final NativeType TIMESTAMP = of(Native.TIMESTAMP);
  public static final NativeType DOUBLE = of(Native.DOUBLE);
  public static final NativeType FLOAT = of(Native.FLOAT);
  public static final NativeType INET = of(Native.INET);
  public static final NativeType COUNTER = of(Native.COUNTER);
  public static final NativeType DATE = of(Native.DATE);
  public static final NativeType TIME = of(Native.TIME);
  public static final NativeType VARINT = of(Native.VARINT);
  public static final NativeType DECIMAL = of(Native.DECIMAL);
  public static final NativeType SMALLINT = of(Native.SMALLINT);
  public static final NativeType TINYINT = of(Native.TINYINT);
  public static final NativeType DURATION = of(Native.DURATION);

  private Types() {}

  public static NativeType of(Native n) {
    return NATIVE.get(n);
  }

  /** The native type called {@code name} (case-insensitive, varchar = text), or null. */
  public static NativeType nativeNamed(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    if (n.equals("varchar")) {
      return TEXT;
    }
    for (Native k : Native.values()) {
      if (k.name().toLowerCase(Locale.ROOT).equals(n)) {
        return NATIVE.get(k);
      }
    }
    return null;
  }

  public static boolean isNative(CqlType t, Native kind) {
    return t instanceof NativeType n && n.kind() == kind;
  }

  public static boolean isCollection(CqlType t) {
    return t instanceof ListType || t instanceof SetType || t instanceof MapType;
  }

  /** True for a collection or UDT whose elements are stored as separate cells. */
  public static boolean isMultiCell(CqlType t) {
    return (t instanceof ListType l && !l.frozen()) || (t instanceof SetType s && !s.frozen())
        || (t instanceof MapType m && !m.frozen()) || (t instanceof UdtType u && !u.frozen());
  }

  public static boolean isCounter(CqlType t) {
    return isNative(t, Native.COUNTER);
  }

  public static CqlType freeze(CqlType t) {
    if (t instanceof ListType l) {
      return new ListType(l.element(), true);
    }
    if (t instanceof SetType s) {
      return new SetType(s.element(), true);
    }
    if (t instanceof MapType m) {
      return new MapType(m.key(), m.value(), true);
    }
    if (t instanceof UdtType u) {
      return new UdtType(u.keyspace(), u.name(), u.fieldNames(), u.fieldTypes(), true);
    }
    return t;
  }

  /** The type as CQL text, e.g. {@code frozen<map<text, int>>}, as system_schema.columns shows it. */
  public static String toCql(CqlType t) {
    if (t instanceof NativeType n) {
      return n.kind().name().toLowerCase(Locale.ROOT);
    }
    if (t instanceof ListType l) {
      return wrap("list<" + toCql(l.element()) + ">", l.frozen());
    }
    if (t instanceof SetType s) {
      return wrap("set<" + toCql(s.element()) + ">", s.frozen());
    }
    if (t instanceof MapType m) {
      return wrap("map<" + toCql(m.key()) + ", " + toCql(m.value()) + ">", m.frozen());
    }
    if (t instanceof TupleType tu) {
      StringBuilder sb = new StringBuilder("frozen<tuple<");
      for (int i = 0; i < tu.elements().size(); i++) {
        sb.append(i == 0 ? "" : ", ").append(toCql(tu.elements().get(i)));
      }
      return sb.append(">>").toString();
    }
    if (t instanceof UdtType u) {
      return wrap(Identifiers.quoteIfNeeded(u.name()), u.frozen());
    }
    if (t instanceof VectorType v) {
      return "vector<" + toCql(v.element()) + ", " + v.dimension() + ">";
    }
    if (t instanceof CqlType.CustomType c) {
      return "'" + c.className() + "'";
    }
    throw new IllegalArgumentException("unknown type " + t);
  }

  private static String wrap(String s, boolean frozen) {
    return frozen ? "frozen<" + s + ">" : s;
  }

  /** Like {@link #toCql} but without the outer {@code frozen<>} (for function signatures). */
  public static String toCqlUnfrozen(CqlType t) {
    return toCql(t.equals(freeze(t)) && !(t instanceof TupleType) ? unfreeze(t) : t);
  }

  public static CqlType unfreeze(CqlType t) {
    if (t instanceof ListType l) {
      return new ListType(l.element(), false);
    }
    if (t instanceof SetType s) {
      return new SetType(s.element(), false);
    }
    if (t instanceof MapType m) {
      return new MapType(m.key(), m.value(), false);
    }
    if (t instanceof UdtType u) {
      return new UdtType(u.keyspace(), u.name(), u.fieldNames(), u.fieldTypes(), false);
    }
    return t;
  }

  /** Whether values of {@code from} can be read as {@code to} (text → ascii no; ascii → text yes). */
  public static boolean isCompatible(CqlType to, CqlType from) {
    if (to.equals(from)) {
      return true;
    }
    if (isNative(to, Native.TEXT) && isNative(from, Native.ASCII)) {
      return true;
    }
    if (isNative(to, Native.BLOB)) {
      return !isMultiCell(from);
    }
    if (isNative(to, Native.UUID) && isNative(from, Native.TIMEUUID)) {
      return true;
    }
    if (freeze(to).equals(freeze(from))) {
      return true;
    }
    return false;
  }
}
