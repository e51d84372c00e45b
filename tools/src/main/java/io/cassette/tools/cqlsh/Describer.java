package io.cassette.tools.cqlsh;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.metadata.Metadata;
import com.datastax.oss.driver.api.core.metadata.schema.KeyspaceMetadata;
import com.datastax.oss.driver.api.core.metadata.schema.TableMetadata;
import com.datastax.oss.driver.api.core.type.UserDefinedType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * DESCRIBE from the driver's schema metadata, which works the same against Cassandra and
 * Cassette: listings are columnized as cqlsh does (Python's {@code cmd.columnize}, 80 columns);
 * objects print as the CQL that recreates them.
 */
final class Describer {
  /** Keyspaces DESCRIBE SCHEMA leaves out (FULL SCHEMA includes them). */
  static final Set<String> SYSTEM_KEYSPACES = Set.of("system", "system_auth", "system_distributed",
      "system_schema", "system_traces", "system_views", "system_virtual_schema");
  static final int DISPLAY_WIDTH = 80;

  private Describer() {}

  /**
   * Runs {@code DESCRIBE ...}; {@code args} is the text after DESCRIBE/DESC.
   *
   * @param currentKeyspace the keyspace of USE, or null
   */
  static String describe(Metadata metadata, String args, String currentKeyspace, String clusterName) {
    String rest = args.strip();
    if (rest.endsWith(";")) {
      rest = rest.substring(0, rest.length() - 1).strip();
    }
    String[] words = rest.split("\\s+", 2);
    String what = words[0].toUpperCase(Locale.ROOT);
    String name = words.length > 1 ? words[1].strip() : "";
    switch (what) {
      case "KEYSPACES":
        return "\n" + columnize(keyspaceNames(metadata, true)) + "\n";
      case "TABLES":
        return tables(metadata, currentKeyspace);
      case "TYPES":
        return types(metadata, currentKeyspace);
      case "KEYSPACE":
        return keyspace(metadata, name.isEmpty() ? requireCurrent(currentKeyspace) : name);
      case "TABLE", "COLUMNFAMILY":
        return table(metadata, name, currentKeyspace);
      case "TYPE":
        return type(metadata, name, currentKeyspace);
      case "CLUSTER":
        return "\nCluster: " + clusterName + "\nPartitioner: Murmur3Partitioner\n\n";
      case "SCHEMA":
        return schema(metadata, false);
      case "FULL":
        if (name.equalsIgnoreCase("SCHEMA")) {
          return schema(metadata, true);
        }
        throw new ShellException("Improper DESCRIBE command.");
      case "":
        throw new ShellException("Improper DESCRIBE command.");
      default:
        // DESCRIBE name: a keyspace, else a table of the current keyspace
        if (metadata.getKeyspace(CqlIdentifier.fromCql(rest)).isPresent()) {
          return keyspace(metadata, rest);
        }
        return table(metadata, rest, currentKeyspace);
    }
  }

  private static String keyspace(Metadata metadata, String name) {
    KeyspaceMetadata ks = metadata.getKeyspace(CqlIdentifier.fromCql(name))
        .orElseThrow(() -> ShellException.invalidRequest("'" + unquote(name) + "' not found in keyspaces"));
    return "\n" + ks.describeWithChildren(true).strip() + "\n\n";
  }

  private static String table(Metadata metadata, String qualified, String currentKeyspace) {
    String[] parts = split(qualified, currentKeyspace);
    KeyspaceMetadata ks = metadata.getKeyspace(CqlIdentifier.fromCql(parts[0]))
        .orElseThrow(() -> ShellException.invalidRequest("'" + unquote(parts[0]) + "' not found in keyspaces"));
    TableMetadata t = ks.getTable(CqlIdentifier.fromCql(parts[1]))
        .orElseThrow(() -> ShellException.invalidRequest("'" + unquote(parts[1]) + "' not found in keyspace '"
            + ks.getName().asInternal() + "'"));
    return "\n" + t.describeWithChildren(true).strip() + "\n\n";
  }

  private static String type(Metadata metadata, String qualified, String currentKeyspace) {
    String[] parts = split(qualified, currentKeyspace);
    KeyspaceMetadata ks = metadata.getKeyspace(CqlIdentifier.fromCql(parts[0]))
        .orElseThrow(() -> ShellException.invalidRequest("'" + unquote(parts[0]) + "' not found in keyspaces"));
    UserDefinedType t = ks.getUserDefinedType(CqlIdentifier.fromCql(parts[1]))
        .orElseThrow(() -> ShellException.invalidRequest("User defined type '" + unquote(parts[1])
            + "' not found in '" + ks.getName().asInternal() + "'"));
    return "\n" + t.describe(true).strip() + "\n\n";
  }

  private static String tables(Metadata metadata, String currentKeyspace) {
    if (currentKeyspace != null) {
      KeyspaceMetadata ks = metadata.getKeyspace(CqlIdentifier.fromCql(currentKeyspace)).orElse(null);
      List<String> names = new ArrayList<>();
      if (ks != null) {
        ks.getTables().keySet().forEach(n -> names.add(n.asCql(true)));
      }
      names.sort(null);
      return "\n" + columnize(names) + "\n";
    }
    StringBuilder out = new StringBuilder("\n");
    for (String ksName : keyspaceNames(metadata, true)) {
      KeyspaceMetadata ks = metadata.getKeyspace(CqlIdentifier.fromCql(ksName)).orElseThrow();
      List<String> names = new ArrayList<>();
      ks.getTables().keySet().forEach(n -> names.add(n.asCql(true)));
      names.sort(null);
      String title = "Keyspace " + ks.getName().asInternal();
      out.append(title).append('\n').append("-".repeat(title.length())).append('\n')
          .append(columnize(names)).append('\n');
    }
    return out.toString();
  }

  private static String types(Metadata metadata, String currentKeyspace) {
    StringBuilder out = new StringBuilder("\n");
    for (String ksName : keyspaceNames(metadata, true)) {
      if (currentKeyspace != null && !ksName.equals(currentKeyspace)) {
        continue;
      }
      KeyspaceMetadata ks = metadata.getKeyspace(CqlIdentifier.fromCql(ksName)).orElseThrow();
      List<String> names = new ArrayList<>();
      ks.getUserDefinedTypes().keySet().forEach(n -> names.add(n.asCql(true)));
      names.sort(null);
      if (currentKeyspace == null) {
        String title = "Keyspace " + ks.getName().asInternal();
        out.append(title).append('\n').append("-".repeat(title.length())).append('\n');
      }
      out.append(columnize(names)).append('\n');
    }
    return out.toString();
  }

  private static String schema(Metadata metadata, boolean full) {
    StringBuilder out = new StringBuilder();
    for (String ksName : keyspaceNames(metadata, full)) {
      if (!full && SYSTEM_KEYSPACES.contains(ksName)) {
        continue;
      }
      KeyspaceMetadata ks = metadata.getKeyspace(CqlIdentifier.fromCql(ksName)).orElseThrow();
      out.append('\n').append(ks.describeWithChildren(true).strip()).append('\n');
    }
    return out.append('\n').toString();
  }

  /** Keyspace names as CQL identifiers (quoted when needed), sorted. */
  private static List<String> keyspaceNames(Metadata metadata, boolean withSystem) {
    List<String> names = new ArrayList<>();
    metadata.getKeyspaces().keySet().forEach(n -> {
      if (withSystem || !SYSTEM_KEYSPACES.contains(n.asInternal())) {
        names.add(n.asCql(true));
      }
    });
    names.sort(null);
    return names;
  }

  private static String requireCurrent(String currentKeyspace) {
    if (currentKeyspace == null) {
      throw new ShellException("Not in any keyspace.");
    }
    return currentKeyspace;
  }

  /** "ks.t" or "t" (with the current keyspace) as {keyspace, name}; double quotes respected. */
  static String[] split(String qualified, String currentKeyspace) {
    boolean quoted = false;
    for (int i = 0; i < qualified.length(); i++) {
      char c = qualified.charAt(i);
      if (c == '"') {
        quoted = !quoted;
      } else if (c == '.' && !quoted) {
        return new String[] {qualified.substring(0, i), qualified.substring(i + 1)};
      }
    }
    if (qualified.isEmpty()) {
      throw new ShellException("Improper DESCRIBE command.");
    }
    return new String[] {requireCurrent(currentKeyspace), qualified};
  }

  private static String unquote(String s) {
    return CqlIdentifier.fromCql(s).asInternal();
  }

  /** Python's {@code cmd.Cmd.columnize}: as few rows as fit in {@link #DISPLAY_WIDTH}. */
  static String columnize(List<String> list) {
    if (list.isEmpty()) {
      return "<empty>\n";
    }
    int size = list.size();
    if (size == 1) {
      return list.get(0) + "\n";
    }
    int nrows = 1;
    int ncols = size;
    List<Integer> widths = new ArrayList<>();
    boolean fits = false;
    for (nrows = 1; nrows < size; nrows++) {
      ncols = (size + nrows - 1) / nrows;
      widths.clear();
      int total = -2;
      for (int col = 0; col < ncols; col++) {
        int w = 0;
        for (int row = 0; row < nrows; row++) {
          int i = row + nrows * col;
          if (i >= size) {
            break;
          }
          w = Math.max(w, list.get(i).length());
        }
        widths.add(w);
        total += w + 2;
        if (total > DISPLAY_WIDTH) {
          break;
        }
      }
      if (total <= DISPLAY_WIDTH) {
        fits = true;
        break;
      }
    }
    if (!fits) {
      nrows = size;
      ncols = 1;
      widths.clear();
      widths.add(0);
    }
    StringBuilder out = new StringBuilder();
    for (int row = 0; row < nrows; row++) {
      List<String> texts = new ArrayList<>();
      for (int col = 0; col < ncols; col++) {
        int i = row + nrows * col;
        texts.add(i >= size ? "" : list.get(i));
      }
      while (!texts.isEmpty() && texts.get(texts.size() - 1).isEmpty()) {
        texts.remove(texts.size() - 1);
      }
      for (int col = 0; col < texts.size(); col++) {
        String t = texts.get(col);
        texts.set(col, t + " ".repeat(Math.max(0, widths.get(col) - t.length())));
      }
      out.append(String.join("  ", texts)).append('\n');
    }
    return out.toString();
  }
}
