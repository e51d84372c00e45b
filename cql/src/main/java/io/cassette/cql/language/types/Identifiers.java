package io.cassette.cql.language.types;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/** Quoting of CQL identifiers as Cassandra prints them (lower-case unquoted names stay bare). */
public final class Identifiers {
  private static final Pattern UNQUOTED = Pattern.compile("[a-z][a-z0-9_]*");

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

  public static String quoteIfNeeded(String name) {
    if (UNQUOTED.matcher(name).matches() && !RESERVED.contains(name.toLowerCase(Locale.ROOT))) {
      return name;
    }
    return "\"" + name.replace("\"", "\"\"") + "\"";
  }
}
