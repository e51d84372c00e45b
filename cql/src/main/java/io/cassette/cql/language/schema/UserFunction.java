package io.cassette.cql.language.schema;

import io.cassette.cql.CqlType;
import io.cassette.cql.language.types.Types;
import java.util.ArrayList;
import java.util.List;

/**
 * A user-defined scalar function of a keyspace (CREATE FUNCTION), as system_schema.functions
 * shows it. Overloads share a name and differ by argument types; {@link #argumentTypeNames} is
 * the key within the keyspace together with the name.
 */
public record UserFunction(String keyspace, String name, List<String> argumentNames, List<CqlType> argumentTypes,
                           boolean calledOnNullInput, CqlType returnType, String language, String body) {
  public UserFunction {
    argumentNames = List.copyOf(argumentNames);
    argumentTypes = List.copyOf(argumentTypes);
  }

  /** The argument types as CQL text, as system_schema and events list them. */
  public List<String> argumentTypeNames() {
    return typeNames(argumentTypes);
  }

  /** {@code ks.name(t1, t2)}, how Cassandra's messages name one overload. */
  public String signature() {
    return keyspace + "." + name + "(" + String.join(", ", argumentTypeNames()) + ")";
  }

  public static List<String> typeNames(List<CqlType> types) {
    List<String> out = new ArrayList<>(types.size());
    for (CqlType t : types) {
      out.add(Types.toCql(t));
    }
    return out;
  }
}
