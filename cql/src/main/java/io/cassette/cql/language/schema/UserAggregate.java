package io.cassette.cql.language.schema;

import io.cassette.cql.CqlType;
import java.util.List;

/**
 * A user-defined aggregate (CREATE AGGREGATE): rows are folded through the state function
 * {@code stateFunction(stateType state, args...)} starting from {@code initcond} (serialized,
 * null for none), and the final state goes through {@code finalFunction} when there is one. The
 * functions live in the same keyspace and are named without it, as in system_schema.aggregates.
 */
public record UserAggregate(String keyspace, String name, List<CqlType> argumentTypes, String stateFunction,
                            CqlType stateType, String finalFunction, byte[] initcond, CqlType returnType) {
  public UserAggregate {
    argumentTypes = List.copyOf(argumentTypes);
  }

  public List<String> argumentTypeNames() {
    return UserFunction.typeNames(argumentTypes);
  }

  /** The state function's argument types: the state first, then the aggregate's. */
  public List<CqlType> stateArgumentTypes() {
    List<CqlType> out = new java.util.ArrayList<>();
    out.add(stateType);
    out.addAll(argumentTypes);
    return out;
  }

  public String signature() {
    return keyspace + "." + name + "(" + String.join(", ", argumentTypeNames()) + ")";
  }
}
