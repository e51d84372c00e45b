package io.cassette.tools.cqlsh;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.metadata.Metadata;
import com.datastax.oss.driver.api.core.metadata.schema.KeyspaceMetadata;
import com.datastax.oss.driver.api.core.metadata.schema.TableMetadata;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jline.reader.Candidate;
import org.jline.reader.Completer;
import org.jline.reader.LineReader;
import org.jline.reader.ParsedLine;

/**
 * Tab completion from the driver's live schema metadata: CQL keywords and shell commands,
 * keyspaces, tables (bare in the current keyspace, and {@code ks.table} after {@code ks.}) and
 * the columns of the tables the line names. JLine filters candidates by the typed prefix.
 */
final class CqlCompleter implements Completer {
  static final List<String> KEYWORDS = List.of("SELECT", "FROM", "WHERE", "AND", "INSERT", "INTO",
      "VALUES", "UPDATE", "SET", "DELETE", "CREATE", "ALTER", "DROP", "TRUNCATE", "KEYSPACE",
      "KEYSPACES", "TABLE", "TABLES", "TYPE", "TYPES", "INDEX", "MATERIALIZED", "VIEW", "IF",
      "NOT", "EXISTS", "WITH", "PRIMARY", "KEY", "CLUSTERING", "ORDER", "BY", "ASC", "DESC",
      "LIMIT", "PER", "PARTITION", "ALLOW", "FILTERING", "USING", "TTL", "TIMESTAMP", "BATCH",
      "BEGIN", "APPLY", "UNLOGGED", "COUNTER", "USE", "GRANT", "REVOKE", "IN", "CONTAINS",
      "TOKEN", "DISTINCT", "COUNT", "AS", "JSON", "replication", "durable_writes", "DESCRIBE",
      "EXPAND", "PAGING", "CONSISTENCY", "SERIAL", "SOURCE", "COPY", "TO", "HEADER", "EXIT",
      "QUIT", "HELP", "SHOW", "VERSION", "HOST", "ON", "OFF", "ONE", "QUORUM", "ALL",
      "LOCAL_QUORUM", "LOCAL_ONE", "ascii", "bigint", "blob", "boolean", "counter", "date",
      "decimal", "double", "duration", "float", "inet", "int", "list", "map", "set", "smallint",
      "text", "time", "timestamp", "timeuuid", "tinyint", "tuple", "uuid", "varchar", "varint",
      "frozen", "vector");
  private static final Pattern TABLE_REFERENCE = Pattern.compile(
      "(?i)\\b(?:FROM|INTO|UPDATE|TABLE|COPY|TRUNCATE)\\s+([\\w\"]+(?:\\.[\\w\"]+)?)");

  private final Supplier<Metadata> metadata;
  private final Supplier<Optional<CqlIdentifier>> currentKeyspace;

  CqlCompleter(Supplier<Metadata> metadata, Supplier<Optional<CqlIdentifier>> currentKeyspace) {
    this.metadata = metadata;
    this.currentKeyspace = currentKeyspace;
  }

  @Override
  public void complete(LineReader reader, ParsedLine line, List<Candidate> candidates) {
    candidatesFor(line.line(), line.word()).forEach(c -> candidates.add(new Candidate(c)));
  }

  /** Everything that may complete {@code word} in {@code line}. */
  Set<String> candidatesFor(String line, String word) {
    Set<String> out = new LinkedHashSet<>();
    Metadata m = metadata.get();
    int dot = word.indexOf('.');
    if (dot > 0) { // ks.<table>
      m.getKeyspace(CqlIdentifier.fromCql(word.substring(0, dot))).ifPresent(ks ->
          ks.getTables().keySet().forEach(t -> out.add(word.substring(0, dot) + "." + t.asCql(true))));
      return out;
    }
    out.addAll(KEYWORDS);
    m.getKeyspaces().keySet().forEach(k -> out.add(k.asCql(true)));
    currentKeyspace.get().flatMap(m::getKeyspace).ifPresent(ks ->
        ks.getTables().keySet().forEach(t -> out.add(t.asCql(true))));
    Matcher ref = TABLE_REFERENCE.matcher(line);
    boolean named = false;
    while (ref.find()) {
      named = true;
      table(m, ref.group(1)).ifPresent(t ->
          t.getColumns().keySet().forEach(c -> out.add(c.asCql(true))));
    }
    if (!named) { // "SELECT na<TAB>" before FROM: any column of the current keyspace
      currentKeyspace.get().flatMap(m::getKeyspace).ifPresent(ks -> ks.getTables().values()
          .forEach(t -> t.getColumns().keySet().forEach(c -> out.add(c.asCql(true)))));
    }
    return out;
  }

  private Optional<TableMetadata> table(Metadata m, String name) {
    int dot = name.indexOf('.');
    Optional<KeyspaceMetadata> ks = dot > 0
        ? m.getKeyspace(CqlIdentifier.fromCql(name.substring(0, dot)))
        : currentKeyspace.get().flatMap(m::getKeyspace);
    String table = dot > 0 ? name.substring(dot + 1) : name;
    return ks.flatMap(k -> k.getTable(CqlIdentifier.fromCql(table)));
  }
}
