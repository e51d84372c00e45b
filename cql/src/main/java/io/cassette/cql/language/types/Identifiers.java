package io.cassette.cql.language.types;

import java.util.Set;

/** Quoting of CQL identifiers as Cassandra prints them (lower-case unquoted names stay bare). */
public final class Identifiers {
  /** Reserved words that must always be quoted (Cassandra's ReservedKeywords). */
  private static final Set<String> RESERVED = Set.of("add", "allow", "alter", "and", "apply",
      "asc", "authorize", "batch", "begin", "by", "columnfamily", "create", "delete", "desc",
      "describe", "drop", "entries", "execute", "from", "full", "grant", "if", "in", "index",
      "infinity", "insert", "into", "is", "keyspace", "limit", "materialized", "mbean",
      "mbeans", "modify", "nan", "norecursive", "not", "null", "of", "on", "or", "order",
      "primary", "rename", "replace", "revoke", "schema", "select", "set", "table", "to",
      "token", "truncate", "unlogged", "unset", "update", "use", "using", "view", "where",
      "with");

  private Identifiers() {}

  /** {@code [a-z][a-z0-9_]*}, without a regex: this runs for every column of every read. */
  private static boolean unquoted(String name) {
    if (name.isEmpty() || name.charAt(0) < 'a' || name.charAt(0) > 'z') {
      return false;
    }
    for (int i = 1; i < name.length(); i++) {
      char ch = name.charAt(i);
      if (!(ch >= 'a' && ch <= 'z' || ch >= '0' && ch <= '9' || ch == '_')) {
        return false;
      }
    }
    return true;
  }

  public static String quoteIfNeeded(String name) {
    if (unquoted(name) && !RESERVED.contains(name)) {
      return name;
    }
    return "\"" + name.replace("\"", "\"\"") + "\"";
  }
}
