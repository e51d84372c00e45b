package io.cassette.cql.language.parser;

import java.util.List;

/**
 * A type as written in a statement, before user types are resolved: {@code name} is a
 * native type, a collection ({@code list, set, map, tuple, vector, frozen}) or a user type.
 */
public record RawType(String keyspace, String name, List<RawType> params, int dimension) {
  public static RawType simple(String name) {
    return new RawType(null, name, List.of(), 0);
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    if (keyspace != null) {
      sb.append(keyspace).append('.');
    }
    sb.append(name);
    if (!params.isEmpty()) {
      sb.append('<');
      for (int i = 0; i < params.size(); i++) {
        sb.append(i == 0 ? "" : ", ").append(params.get(i));
      }
      if (name.equals("vector")) {
        sb.append(", ").append(dimension);
      }
      sb.append('>');
    }
    return sb.toString();
  }
}
