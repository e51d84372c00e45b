package io.cassette.cql.language.schema;

import static io.cassette.cql.language.Errors.invalid;

import io.cassette.cql.CqlType;
import io.cassette.cql.CqlType.ListType;
import io.cassette.cql.CqlType.MapType;
import io.cassette.cql.CqlType.SetType;
import io.cassette.cql.CqlType.TupleType;
import io.cassette.cql.CqlType.UdtType;
import io.cassette.cql.CqlType.VectorType;
import io.cassette.cql.language.parser.Parser;
import io.cassette.cql.language.parser.RawType;
import io.cassette.cql.language.types.Types;
import java.util.ArrayList;
import java.util.List;

/** Turns written types into {@link CqlType}s, resolving user types and checking Cassandra's rules. */
public final class TypeResolver {
  private TypeResolver() {}

  /** Parses and resolves a type string as stored in system_schema. */
  public static CqlType parse(String text, KeyspaceMetadata ks) {
    return resolve(Parser.parseType(text), ks);
  }

  public static CqlType resolve(RawType raw, KeyspaceMetadata ks) {
    return resolve(raw, ks, false, false);
  }

  private static CqlType resolve(RawType raw, KeyspaceMetadata ks, boolean frozen, boolean inCollection) {
    String n = raw.name();
    if (n.startsWith("'")) {
      return CustomTypes.resolve(n.substring(1, n.length() - 1));
    }
    if (raw.params().isEmpty() && raw.keyspace() == null) {
      CqlType nt = Types.nativeNamed(n);
      if (nt != null) {
        if (inCollection && Types.isCounter(nt)) {
          throw invalid("Counters are not allowed inside collections: " + rawText(raw));
        }
        return nt;
      }
    }
    switch (n) {
      case "frozen" -> {
        RawType inner = raw.params().get(0);
        if (inner.params().isEmpty() && Types.nativeNamed(inner.name()) != null && inner.keyspace() == null) {
          throw io.cassette.cql.language.Errors.syntax("frozen<> is only allowed on collections, tuples, and user-defined types (got " + inner + ")");
        }
        return Types.freeze(resolve(inner, ks, true, inCollection));
      }
      case "list" -> {
        CqlType e = element(raw.params().get(0), ks, raw);
        return new ListType(e, frozen);
      }
      case "set" -> {
        CqlType e = element(raw.params().get(0), ks, raw);
        return new SetType(e, frozen);
      }
      case "map" -> {
        CqlType k = element(raw.params().get(0), ks, raw);
        CqlType v = element(raw.params().get(1), ks, raw);
        return new MapType(k, v, frozen);
      }
      case "tuple" -> {
        List<CqlType> es = new ArrayList<>();
        for (RawType p : raw.params()) {
          es.add(Types.freeze(resolve(p, ks, true, true)));
        }
        return new TupleType(es);
      }
      case "vector" -> {
        if (raw.dimension() <= 0) {
          throw invalid("vectors may only have positive dimensions; given " + raw.dimension());
        }
        CqlType e = Types.freeze(resolve(raw.params().get(0), ks, true, true));
        if (Types.isCounter(e)) {
          throw invalid("vectors may not contain counters");
        }
        return new VectorType(e, raw.dimension());
      }
      default -> { }
    }
    if (ks == null || (raw.keyspace() != null && !raw.keyspace().equals(ks.name()))) {
      if (raw.keyspace() != null && ks != null) {
        throw invalid("Statement on keyspace " + ks.name() + " cannot refer to a user type in keyspace "
            + raw.keyspace() + "; user types can only be used in the keyspace they are defined in");
      }
      throw invalid("Unknown type " + raw);
    }
    UdtType u = ks.types().get(n);
    if (u == null) {
      throw invalid("Unknown type " + ks.name() + "." + n);
    }
    return frozen ? Types.freeze(u) : Types.unfreeze(u);
  }

  private static CqlType element(RawType p, KeyspaceMetadata ks, RawType whole) {
    CqlType e = resolve(p, ks, false, true);
    if (Types.isMultiCell(e)) {
      if (e instanceof UdtType) {
        throw invalid("Non-frozen UDTs are not allowed inside collections: " + rawText(whole));
      }
      throw invalid("Non-frozen collections are not allowed inside collections: " + rawText(whole));
    }
    return e;
  }

  private static String rawText(RawType raw) {
    return raw.toString();
  }
}
