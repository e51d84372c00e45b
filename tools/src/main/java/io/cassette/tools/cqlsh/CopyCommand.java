package io.cassette.tools.cqlsh;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.schema.ColumnMetadata;
import com.datastax.oss.driver.api.core.metadata.schema.KeyspaceMetadata;
import com.datastax.oss.driver.api.core.metadata.schema.TableMetadata;
import com.datastax.oss.driver.api.core.type.DataType;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code COPY ks.table [(col, ...)] TO|FROM 'file.csv' [WITH HEADER = true AND DELIMITER = ','
 * AND QUOTE = '"' AND NULL = '' AND PAGESIZE = 1000 AND MAXINFLIGHT = 32]}: moves a table to or
 * from CSV in the format cqlsh writes, so data goes between Cassette and Cassandra either way.
 * Export pages through the table; import binds each record to a prepared INSERT, with at most
 * MAXINFLIGHT requests outstanding so a small node is not flooded.
 */
final class CopyCommand {
  static final int DEFAULT_PAGE_SIZE = 1000;
  static final int DEFAULT_MAX_IN_FLIGHT = 32;

  private static final Pattern SYNTAX = Pattern.compile(
      "COPY\\s+((?:\"[^\"]+\"|[\\w]+)(?:\\.(?:\"[^\"]+\"|[\\w]+))?)\\s*(?:\\(([^)]*)\\))?\\s*(TO|FROM)\\s+"
          + "('(?:[^']|'')*'|\\S+)\\s*(?:WITH\\s+(.*?))?\\s*;?\\s*",
      Pattern.CASE_INSENSITIVE | Pattern.DOTALL);

  /** A parsed COPY command. */
  record Spec(String keyspace, String table, List<String> columns, boolean export, Path file,
              Map<String, String> options) {
    boolean header() {
      return Boolean.parseBoolean(options.getOrDefault("HEADER", "false"));
    }

    char delimiter() {
      return single("DELIMITER", ',');
    }

    char quote() {
      return single("QUOTE", '"');
    }

    String nullString() {
      return options.getOrDefault("NULL", "");
    }

    int intOption(String name, int fallback) {
      String v = options.get(name);
      try {
        return v == null ? fallback : Integer.parseInt(v);
      } catch (NumberFormatException e) {
        throw new ShellException("Invalid value for " + name + ": '" + v + "'");
      }
    }

    private char single(String name, char fallback) {
      String v = options.get(name);
      if (v == null) {
        return fallback;
      }
      if (v.length() != 1) {
        throw new ShellException(name + " must be a single character, not '" + v + "'");
      }
      return v.charAt(0);
    }
  }

  private CopyCommand() {}

  /** Parses a COPY statement; {@code currentKeyspace} qualifies a bare table name. */
  static Spec parse(String statement, String currentKeyspace, Path baseDirectory) {
    Matcher m = SYNTAX.matcher(statement.strip());
    if (!m.matches()) {
      throw new ShellException("Improper COPY command.");
    }
    String[] name = Describer.split(m.group(1), currentKeyspace);
    List<String> columns = new ArrayList<>();
    if (m.group(2) != null) {
      for (String c : m.group(2).split(",")) {
        if (!c.isBlank()) {
          columns.add(c.strip());
        }
      }
    }
    String file = m.group(4);
    if (file.startsWith("'")) {
      file = file.substring(1, file.length() - 1).replace("''", "'");
    }
    if (file.startsWith("~")) {
      file = System.getProperty("user.home") + file.substring(1);
    }
    Map<String, String> options = new LinkedHashMap<>();
    if (m.group(5) != null) {
      for (String pair : m.group(5).split("(?i)\\s+AND\\s+")) {
        String[] kv = pair.split("=", 2);
        if (kv.length != 2) {
          throw new ShellException("Improper COPY command: option '" + pair.strip() + "' needs a value");
        }
        String v = kv[1].strip();
        if (v.length() >= 2 && v.startsWith("'") && v.endsWith("'")) {
          v = v.substring(1, v.length() - 1).replace("''", "'");
        }
        options.put(kv[0].strip().toUpperCase(Locale.ROOT), v);
      }
    }
    return new Spec(name[0], name[1], columns, m.group(3).equalsIgnoreCase("TO"),
        baseDirectory.resolve(file), options);
  }

  /** Runs the COPY; progress and the summary go to {@code out}. */
  static void run(CqlSession session, Spec spec, ConsistencyLevel consistency, PrintStream out) {
    TableMetadata table = table(session, spec);
    List<ColumnMetadata> columns = new ArrayList<>();
    if (spec.columns().isEmpty()) {
      columns.addAll(table.getPrimaryKey());
      table.getColumns().values().stream().filter(c -> !table.getPrimaryKey().contains(c))
          .forEach(columns::add);
    } else {
      for (String c : spec.columns()) {
        columns.add(table.getColumn(CqlIdentifier.fromCql(c)).orElseThrow(() -> new ShellException(
            "Invalid column name " + c)));
      }
    }
    List<String> names = columns.stream().map(c -> c.getName().asCql(true)).toList();
    String qualified = table.getKeyspace().asCql(true) + "." + table.getName().asCql(true);
    out.println("Using 1 child processes");
    out.println();
    out.println("Starting copy of " + table.getKeyspace().asInternal() + "." + table.getName().asInternal()
        + " with columns [" + String.join(", ", columns.stream().map(c -> c.getName().asInternal()).toList())
        + "].");
    long start = System.nanoTime();
    if (spec.export()) {
      long rows = export(session, spec, consistency, qualified, names, columns);
      out.printf(Locale.ROOT, "%d rows exported to 1 files in %.3f seconds.%n", rows, seconds(start));
    } else {
      long[] counts = load(session, spec, consistency, qualified, names, columns, out);
      out.printf(Locale.ROOT, "%d rows imported from 1 files in %.3f seconds (%d skipped).%n",
          counts[0], seconds(start), counts[1]);
    }
  }

  private static TableMetadata table(CqlSession session, Spec spec) {
    KeyspaceMetadata ks = session.getMetadata().getKeyspace(CqlIdentifier.fromCql(spec.keyspace()))
        .orElseThrow(() -> new ShellException("Keyspace " + spec.keyspace() + " does not exist"));
    return ks.getTable(CqlIdentifier.fromCql(spec.table())).orElseThrow(() -> new ShellException(
        "Table " + spec.table() + " does not exist"));
  }

  private static long export(CqlSession session, Spec spec, ConsistencyLevel consistency,
                             String qualified, List<String> names, List<ColumnMetadata> columns) {
    SimpleStatement select = SimpleStatement.newInstance("SELECT " + String.join(", ", names)
        + " FROM " + qualified).setPageSize(spec.intOption("PAGESIZE", DEFAULT_PAGE_SIZE))
        .setConsistencyLevel(consistency);
    long rows = 0;
    try (BufferedWriter w = Files.newBufferedWriter(spec.file(), StandardCharsets.UTF_8)) {
      if (spec.header()) {
        w.write(Csv.format(columns.stream().map(c -> c.getName().asInternal()).toList(),
            spec.delimiter(), spec.quote(), spec.nullString()));
        w.write('\n');
      }
      ResultSet rs = session.execute(select);
      List<String> fields = new ArrayList<>(columns.size());
      for (Row row : rs) {
        fields.clear();
        for (int i = 0; i < columns.size(); i++) {
          Object v = row.isNull(i) ? null : row.getObject(i);
          fields.add(v == null ? null : v instanceof String s ? s
              : ValueFormatter.format(v, columns.get(i).getType()));
        }
        w.write(Csv.format(fields, spec.delimiter(), spec.quote(), spec.nullString()));
        w.write('\n');
        rows++;
      }
    } catch (IOException e) {
      throw new ShellException("Can't open '" + spec.file() + "' for writing: " + e.getMessage());
    }
    return rows;
  }

  /** @return {imported, skipped} */
  private static long[] load(CqlSession session, Spec spec, ConsistencyLevel consistency,
                             String qualified, List<String> names, List<ColumnMetadata> columns,
                             PrintStream out) {
    PreparedStatement insert = session.prepare("INSERT INTO " + qualified + " (" + String.join(", ", names)
        + ") VALUES (" + String.join(", ", names.stream().map(n -> "?").toList()) + ")");
    TextValueParser parser = new TextValueParser(session.getContext().getCodecRegistry());
    int maxInFlight = Math.max(1, spec.intOption("MAXINFLIGHT", DEFAULT_MAX_IN_FLIGHT));
    Semaphore window = new Semaphore(maxInFlight);
    AtomicLong imported = new AtomicLong();
    AtomicLong failed = new AtomicLong();
    AtomicReference<String> firstError = new AtomicReference<>();
    long skipped = 0;
    if (!Files.isReadable(spec.file())) {
      throw new ShellException("Can't open '" + spec.file() + "' for reading: no such file");
    }
    try (BufferedReader r = Files.newBufferedReader(spec.file(), StandardCharsets.UTF_8)) {
      Csv.RecordReader records = new Csv.RecordReader(r, spec.delimiter(), spec.quote(), spec.nullString());
      if (spec.header()) {
        records.next();
      }
      List<String> record;
      while ((record = records.next()) != null) {
        BoundStatement bound;
        try {
          if (record.size() != columns.size()) {
            throw new IllegalArgumentException("Invalid row length " + record.size() + " should be "
                + columns.size());
          }
          Object[] values = new Object[columns.size()];
          for (int i = 0; i < values.length; i++) {
            String field = record.get(i);
            DataType type = columns.get(i).getType();
            values[i] = field == null ? null : parser.parse(field, type);
          }
          bound = insert.bind(values).setConsistencyLevel(consistency);
        } catch (IllegalArgumentException e) {
          out.println("Failed to import 1 rows: ParseError - " + e.getMessage()
              + ",  given up without retries (line " + records.line() + ")");
          skipped++;
          continue;
        }
        window.acquireUninterruptibly();
        CompletionStage<?> f = session.executeAsync(bound);
        f.whenComplete((ok, error) -> {
          if (error == null) {
            imported.incrementAndGet();
          } else {
            failed.incrementAndGet();
            firstError.compareAndSet(null, ErrorFormatter.format(error));
          }
          window.release();
        });
      }
    } catch (IOException e) {
      throw new ShellException("Failed to read '" + spec.file() + "': " + e.getMessage());
    } finally {
      window.acquireUninterruptibly(maxInFlight); // every request answered
    }
    if (failed.get() > 0) {
      out.println("Failed to import " + failed.get() + " rows: " + firstError.get());
    }
    return new long[] {imported.get(), skipped + failed.get()};
  }

  private static double seconds(long startNanos) {
    return (System.nanoTime() - startNanos) / 1e9;
  }
}
