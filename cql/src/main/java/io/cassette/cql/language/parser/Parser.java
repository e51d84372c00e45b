package io.cassette.cql.language.parser;

import io.cassette.cql.CqlException;
import io.cassette.cql.language.Errors;
import io.cassette.cql.language.parser.Relation.Operator;
import io.cassette.cql.language.parser.Statement.AlterKind;
import io.cassette.cql.language.parser.Statement.ColumnDef;
import io.cassette.cql.language.parser.Statement.ColumnMaskDef;
import io.cassette.cql.language.parser.Statement.DeleteTarget;
import io.cassette.cql.language.parser.Statement.Ordering;
import io.cassette.cql.language.parser.Statement.Properties;
import io.cassette.cql.language.parser.Statement.QualifiedName;
import io.cassette.cql.language.parser.Token.Kind;
import io.cassette.cql.language.types.Values.Constant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A recursive-descent parser for Cassandra 5.0's CQL. Syntax errors read like Cassandra's
 * ANTLR messages: {@code line 1:9 mismatched input 'FRM' expecting K_FROM (SELECT * [FRM] t)}.
 * Not thread-safe; one instance per statement.
 */
public final class Parser extends TokenCursor {
  /** Words that cannot be used as unquoted identifiers (Cassandra's reserved keywords). */
  private static final Set<String> RESERVED = Set.of("add", "allow", "alter", "and", "apply",
      "asc", "authorize", "batch", "begin", "by", "columnfamily", "create", "delete", "desc",
      "describe", "drop", "entries", "execute", "from", "full", "grant", "if", "in", "index",
      "infinity", "insert", "into", "is", "keyspace", "limit", "modify", "nan", "norecursive",
      "not", "null", "of", "on", "or", "order", "primary", "rename", "revoke", "schema", "select",
      "set", "table", "to", "token", "truncate", "unlogged", "update", "use", "using", "where",
      "with");
  /**
   * Deepest nesting of terms, selectors and types one statement may have (function calls,
   * parentheses, collection and tuple literals, casts, operator chains, nested types). Everything
   * after the parser (compiling, type inference, evaluation, serialization) recurses along the
   * same tree, so this one bound keeps client input from exhausting a thread's stack: deeper
   * statements get a SyntaxError instead of a StackOverflowError. Real statements nest a few
   * levels; 100 leaves a wide margin below what a 1 MB thread stack survives (about 400).
   * The node's bound is {@link StatementLimits#maxNesting} ({@code cql_max_nesting_depth};
   * JSON values share it); this is its default.
   */
  public static final int DEFAULT_MAX_NESTING = StatementLimits.DEFAULT_MAX_NESTING;

  private final int maxNesting;
  private int markers;
  /** Current nesting of terms, selectors and types, against {@link #maxNesting}. */
  private int depth;

  private Parser(String query, StatementLimits limits) {
    this(query, limits.maxTokens(), limits);
  }

  private Parser(String query, int maxTokens, StatementLimits limits) {
    super(query, maxTokens, limits.maxTokens());
    this.maxNesting = limits.maxNesting();
  }

  /**
   * Parses one statement of a request whose statements share {@code tokensLeft[0]} tokens (a
   * BATCH message), taking its tokens from it; {@code limits} are the node's.
   */
  public static Statement parse(String query, int[] tokensLeft, StatementLimits limits) {
    Parser p = new Parser(query, tokensLeft[0], limits);
    tokensLeft[0] -= p.all.size();
    return p.finish();
  }

  /** Parses one statement (an optional trailing ';' is allowed) with this JVM's default bounds. */
  public static Statement parse(String query) {
    return parse(query, StatementLimits.DEFAULTS);
  }

  /** Parses one statement of a client of a node with these bounds. */
  public static Statement parse(String query, StatementLimits limits) {
    return new Parser(query, limits).finish();
  }

  /**
   * Parses a statement the node itself stored or built (the schema log, built-in tables), not a
   * client's request: the client token bound ({@code cql_max_statement_tokens}) does not apply,
   * so a node lowered to a small bound still replays its schema and opens the Redis door.
   */
  public static Statement parseStored(String ddl) {
    return new Parser(ddl, StatementLimits.STORED).finish();
  }

  private Statement finish() {
    Parser p = this;
    Statement s = p.statement();
    p.accept(";");
    if (p.peek().kind() != Kind.EOF) {
      // UPDATE and DELETE end in an optional IF clause: ANTLR reports a failed decision there.
      // After IF, EXISTS is either the keyword or a column named "exists" (unreserved): that
      // decision looks two tokens ahead, so Cassandra's snippet brackets EXISTS, not the token after.
      Token t = p.peek();
      Token bracket = t;
      if (p.pos >= 2 && p.tokens.get(p.pos - 1).text().equalsIgnoreCase("exists")
          && p.tokens.get(p.pos - 2).text().equalsIgnoreCase("if")) {
        bracket = p.tokens.get(p.pos - 1);
      }
      throw s instanceof Statement.Update || s instanceof Statement.Delete
          ? Errors.syntax(position(t) + " no viable alternative at input '" + t.text() + "'" + p.snippet(bracket, t))
          : p.mismatched(t, "EOF");
    }
    return s;
  }

  /** The number of bind markers of the last parsed statement (for tests). */
  public static int countMarkers(String query) {
    Parser p = new Parser(query, StatementLimits.DEFAULTS);
    p.statement();
    return p.markers;
  }

  /** Parses a type such as {@code frozen<map<text, int>>} (system_schema strings). */
  public static RawType parseType(String text) {
    Parser p = new Parser(text, StatementLimits.STORED); // stored schema strings, not a request
    RawType t = p.type();
    if (p.peek().kind() != Kind.EOF) {
      throw p.mismatched(p.peek(), "EOF");
    }
    return t;
  }

  // ------------------------------------------------------------------ token helpers

  /** One level deeper; a SyntaxError past {@link #maxNesting}. Callers undo it with {@code depth--}. */
  private void enter() {
    if (++depth > maxNesting) {
      Token t = peek();
      throw Errors.syntax(position(t) + " statement nested too deeply at input '" + t.text() + "' (more than "
          + maxNesting + " nested terms, selectors or types)");
    }
  }

  /** An identifier: unquoted (not reserved, lower-cased) or "quoted" (exact). */
  private String ident() {
    Token t = peek();
    if (t.kind() == Kind.QUOTED_IDENT) {
      pos++;
      return t.value();
    }
    if (t.kind() == Kind.IDENT && !RESERVED.contains(t.value())) {
      pos++;
      return t.value();
    }
    if (t.kind() == Kind.EOF || t.kind() == Kind.IDENT || t.kind() == Kind.SYMBOL) {
      throw Errors.syntax(position(t) + " no viable alternative at input '" + t.text() + "'" + snippet(t, t));
    }
    throw mismatched(t, "IDENT");
  }

  private boolean atIdent() {
    Token t = peek();
    return t.kind() == Kind.QUOTED_IDENT || (t.kind() == Kind.IDENT && !RESERVED.contains(t.value()));
  }

  private QualifiedName qualifiedName() {
    String first = ident();
    if (accept(".")) {
      return new QualifiedName(first, ident());
    }
    return new QualifiedName(null, first);
  }

  // ------------------------------------------------------------------ statements

  private Statement statement() {
    Token t = peek();
    if (t.kind() != Kind.IDENT) {
      throw noViable(t);
    }
    switch (t.value()) {
      case "select":
        return select();
      case "insert":
        return insert();
      case "update":
        return update();
      case "delete":
        return delete();
      case "begin":
        return batch();
      case "use":
        next();
        return new Statement.Use(ident());
      case "truncate":
        next();
        if (!accept("table")) {
          accept("columnfamily");
        }
        return new Statement.Truncate(qualifiedName());
      case "create":
        return create();
      case "alter":
        return alter();
      case "drop":
        return drop();
      case "describe", "desc":
        return describe();
      case "grant", "revoke", "list":
        return unsupportedRest(t.value().toUpperCase(Locale.ROOT));
      default:
        throw noViable(t);
    }
  }

  private Statement describe() {
    next();
    boolean full = accept("full");
    boolean only = !full && accept("only");
    Token t = peek();
    String w = t.kind() == Kind.IDENT ? t.value() : "";
    switch (w) {
      case "schema", "cluster", "keyspaces", "tables", "types", "functions", "aggregates" -> {
        next();
        return new Statement.Describe(w.toUpperCase(Locale.ROOT), null, full);
      }
      case "keyspace" -> {
        next();
        QualifiedName n = atIdent() ? new QualifiedName(null, ident()) : null;
        accept("with");
        accept("internals");
        return new Statement.Describe("KEYSPACE", n, only);
      }
      case "table", "columnfamily" -> {
        next();
        return new Statement.Describe("TABLE", qualifiedName(), false);
      }
      case "type" -> {
        next();
        return new Statement.Describe("TYPE", qualifiedName(), false);
      }
      case "index" -> {
        next();
        return new Statement.Describe("INDEX", qualifiedName(), false);
      }
      case "materialized" -> {
        next();
        expect("view");
        return new Statement.Describe("VIEW", qualifiedName(), false);
      }
      default -> {
        QualifiedName n = qualifiedName();
        accept("with");
        accept("internals");
        return new Statement.Describe("NAME", n, false);
      }
    }
  }

  private Statement unsupportedRest(String what) {
    while (peek().kind() != Kind.EOF && !at(";")) {
      next();
    }
    return new Statement.Unsupported(what);
  }

  private Statement create() {
    expect("create");
    if (accept("or")) {
      expect("replace");
      if (at("function") || at("aggregate")) {
        return createFunctionOrAggregate(true);
      }
      return unsupportedRest("CREATE OR REPLACE");
    }
    if (accept("keyspace") || accept("schema")) {
      boolean ine = ifNotExists();
      String name = ident();
      expect("with");
      return new Statement.CreateKeyspace(name, ine, properties());
    }
    if (accept("table") || accept("columnfamily")) {
      return createTable();
    }
    if (accept("type")) {
      boolean ine = ifNotExists();
      QualifiedName name = qualifiedName();
      expect("(");
      List<String> names = new ArrayList<>();
      List<RawType> types = new ArrayList<>();
      do {
        names.add(ident());
        types.add(type());
      } while (accept(","));
      expect(")");
      return new Statement.CreateType(name, ine, names, types);
    }
    boolean custom = accept("custom");
    if (accept("index")) {
      return createIndex(custom);
    }
    Token t = peek();
    if (t.is("function") || t.is("aggregate")) {
      return createFunctionOrAggregate(false);
    }
    if (t.is("materialized")) {
      next();
      expect("view");
      return createView();
    }
    if (t.is("role") || t.is("user") || t.is("trigger")) {
      return unsupportedRest("CREATE " + t.value().toUpperCase(Locale.ROOT));
    }
    throw noViable(t);
  }

  /**
   * CREATE MATERIALIZED VIEW [IF NOT EXISTS] v AS SELECT (* | col, ...) FROM base [WHERE ...]
   * PRIMARY KEY ((pk, ...), ck, ...) [WITH ...], after CREATE MATERIALIZED VIEW (Cassandra's
   * grammar: no DISTINCT or JSON; aliases parse and are refused later, as there).
   */
  private Statement createView() {
    boolean ine = ifNotExists();
    QualifiedName view = qualifiedName();
    expect("as");
    expect("select");
    List<Selector.Aliased> selectors = new ArrayList<>();
    if (!accept("*")) {
      do {
        Selector sel = selector();
        String alias = null;
        if (accept("as")) {
          alias = ident();
        }
        selectors.add(new Selector.Aliased(sel, alias));
      } while (accept(","));
    }
    expect("from");
    QualifiedName base = qualifiedName();
    List<Relation> where = List.of();
    if (accept("where")) {
      where = whereClause();
    }
    expect("primary");
    expect("key");
    List<String> pk = new ArrayList<>();
    List<String> ck = new ArrayList<>();
    primaryKeyColumns(pk, ck);
    Properties props = emptyProperties();
    if (accept("with")) {
      props = properties();
    }
    return new Statement.CreateView(view, ine, selectors, base, where, pk, ck, props);
  }

  /** CREATE [OR REPLACE] FUNCTION|AGGREGATE ... (after CREATE [OR REPLACE]), Cassandra's grammar. */
  private Statement createFunctionOrAggregate(boolean orReplace) {
    boolean aggregate = next().is("aggregate");
    boolean ine = ifNotExists();
    QualifiedName name = qualifiedName();
    expect("(");
    List<String> argNames = new ArrayList<>();
    List<RawType> argTypes = new ArrayList<>();
    if (!at(")")) {
      do {
        if (!aggregate) {
          argNames.add(ident());
        }
        argTypes.add(type());
      } while (accept(","));
    }
    expect(")");
    if (aggregate) {
      expect("sfunc");
      String sfunc = ident();
      expect("stype");
      RawType stype = type();
      String ffunc = accept("finalfunc") ? ident() : null;
      Term init = accept("initcond") ? term() : null;
      return new Statement.CreateAggregate(name, orReplace, ine, argTypes, sfunc, stype, ffunc, init);
    }
    boolean called;
    if (accept("called")) {
      called = true;
    } else {
      expect("returns");
      expect("null");
      called = false;
    }
    expect("on");
    expect("null");
    expect("input");
    expect("returns");
    RawType ret = type();
    expect("language");
    String language = ident();
    expect("as");
    Token body = peek();
    if (body.kind() != Kind.STRING) {
      throw mismatched(body, "STRING_LITERAL");
    }
    next();
    return new Statement.CreateFunction(name, orReplace, ine, argNames, argTypes, called, ret, language,
        body.value());
  }

  /**
   * "MASKED WITH DEFAULT" (mask_default) or "MASKED WITH f(args)" after a column's type, or null
   * when the column has no mask.
   */
  private ColumnMaskDef maskClause() {
    if (!accept("masked")) {
      return null;
    }
    expect("with");
    return maskFunction();
  }

  private ColumnMaskDef maskFunction() {
    if (accept("default")) {
      return new ColumnMaskDef(new QualifiedName("system", "mask_default"), List.of());
    }
    QualifiedName fn = qualifiedName();
    expect("(");
    List<Term> args = new ArrayList<>();
    if (!accept(")")) {
      do {
        args.add(term());
      } while (accept(","));
      expect(")");
    }
    return new ColumnMaskDef(fn, args);
  }

  private Statement createIndex(boolean custom) {
    boolean ine = ifNotExists();
    String name = null;
    if (!at("on")) {
      name = ident();
    }
    expect("on");
    QualifiedName table = qualifiedName();
    expect("(");
    String target = "values";
    String column;
    if ((at("keys") || at("values") || at("entries") || at("full")) && peek(1).is("(")) {
      target = next().value();
      expect("(");
      column = ident();
      expect(")");
    } else {
      column = ident();
      target = "simple";
    }
    expect(")");
    String cls = null;
    Properties props = emptyProperties();
    if (accept("using")) {
      Token c = next();
      if (c.kind() != Kind.STRING) {
        throw mismatched(c, "STRING_LITERAL");
      }
      cls = c.value();
      if (accept("with")) {
        props = properties();
      }
    } else if (custom) {
      throw mismatched(peek(), "K_USING");
    }
    return new Statement.CreateIndex(name, table, ine, column, target, cls, props);
  }

  /**
   * The column list of a PRIMARY KEY clause, after PRIMARY KEY, in a table or a view:
   * {@code (pk, ck, ...)} or {@code ((pk, ...), ck, ...)}; partition key columns to {@code pk},
   * clustering columns to {@code ck}.
   */
  private void primaryKeyColumns(List<String> pk, List<String> ck) {
    expect("(");
    if (accept("(")) {
      do {
        pk.add(ident());
      } while (accept(","));
      expect(")");
    } else {
      pk.add(ident());
    }
    while (accept(",")) {
      ck.add(ident());
    }
    expect(")");
  }

  private Statement createTable() {
    boolean ine = ifNotExists();
    QualifiedName name = qualifiedName();
    expect("(");
    List<ColumnDef> columns = new ArrayList<>();
    List<String> pk = new ArrayList<>();
    List<String> ck = new ArrayList<>();
    boolean pkSeen = false;
    do {
      if (at(")") || at(",")) {
        continue; // Cassandra's grammar accepts empty elements: "(a int PRIMARY KEY,, b int)"
      }
      if (at("primary")) {
        next();
        expect("key");
        if (pkSeen) {
          throw Errors.invalid("Multiple PRIMARY KEY specified for table '" + name.name() + "' (exactly one required)");
        }
        pkSeen = true;
        primaryKeyColumns(pk, ck);
      } else {
        String col = ident();
        RawType t = type();
        boolean isStatic = accept("static");
        ColumnMaskDef mask = maskClause();
        if (accept("primary")) {
          expect("key");
          if (pkSeen) {
            throw Errors.invalid("Multiple PRIMARY KEY specified for table '" + name.name() + "' (exactly one required)");
          }
          pkSeen = true;
          pk.add(col);
        }
        columns.add(new ColumnDef(col, t, isStatic, mask));
      }
    } while (accept(","));
    expect(")");
    Properties props = emptyProperties();
    if (accept("with")) {
      props = properties();
    }
    return new Statement.CreateTable(name, ine, columns, pk, ck, props);
  }

  private Statement alter() {
    expect("alter");
    if (accept("keyspace") || accept("schema")) {
      boolean ie = ifExists();
      String name = ident();
      expect("with");
      return new Statement.AlterKeyspace(name, ie, properties());
    }
    if (accept("table") || accept("columnfamily")) {
      boolean ie = ifExists();
      QualifiedName name = qualifiedName();
      Token t = peek();
      if (accept("add")) {
        boolean ine = ifNotExists();
        List<ColumnDef> defs = new ArrayList<>();
        if (accept("(")) {
          do {
            defs.add(columnDef());
          } while (accept(","));
          expect(")");
        } else {
          defs.add(columnDef());
        }
        // With masking off Cassandra 5.0.4 still adds a column declared MASKED, with its mask;
        // so does Cassette (SchemaStatements refuses MASKED WITH only in CREATE TABLE and ALTER).
        return new Statement.AlterTable(name, ie, AlterKind.ADD, ine, defs, List.of(), Map.of(), null, null);
      }
      if (accept("drop")) {
        boolean ifx = ifExists();
        List<String> cols = new ArrayList<>();
        if (accept("(")) {
          do {
            cols.add(ident());
          } while (accept(","));
          expect(")");
        } else {
          cols.add(ident());
        }
        if (accept("using")) {
          expect("timestamp");
          next();
        }
        return new Statement.AlterTable(name, ie, AlterKind.DROP, ifx, List.of(), cols, Map.of(), null, null);
      }
      if (accept("alter")) {
        String col = ident();
        if (at("masked")) {
          return new Statement.AlterColumnMask(name, ie, col, maskClause());
        }
        if (at("drop") && peek(1).is("masked")) {
          next();
          next();
          return new Statement.AlterColumnMask(name, ie, col, null);
        }
        expect("type");
        RawType ty = type();
        return new Statement.AlterTable(name, ie, AlterKind.ALTER, false, List.of(), List.of(col),
            Map.of(), ty, null);
      }
      if (accept("rename")) {
        boolean ifx = ifExists();
        Map<String, String> ren = new LinkedHashMap<>();
        do {
          String from = ident();
          expect("to");
          ren.put(from, ident());
        } while (accept("and"));
        return new Statement.AlterTable(name, ie, AlterKind.RENAME, ifx, List.of(), List.of(), ren, null, null);
      }
      if (accept("with")) {
        return new Statement.AlterTable(name, ie, AlterKind.WITH, false, List.of(), List.of(),
            Map.of(), null, properties());
      }
      throw noViable(t);
    }
    if (accept("type")) {
      boolean ie = ifExists();
      QualifiedName name = qualifiedName();
      if (accept("add")) {
        ifNotExists();
        String f = ident();
        return new Statement.AlterType(name, ie, true, f, type(), Map.of());
      }
      if (accept("rename")) {
        ifExists();
        Map<String, String> ren = new LinkedHashMap<>();
        do {
          String from = ident();
          expect("to");
          ren.put(from, ident());
        } while (accept("and"));
        return new Statement.AlterType(name, ie, false, null, null, ren);
      }
      throw noViable(peek());
    }
    Token t = peek();
    if (t.is("materialized")) {
      next();
      expect("view");
      boolean ie = ifExists();
      QualifiedName name = qualifiedName();
      expect("with");
      return new Statement.AlterView(name, ie, properties());
    }
    if (t.is("role") || t.is("user")) {
      return unsupportedRest("ALTER " + t.value().toUpperCase(Locale.ROOT));
    }
    throw noViable(t);
  }

  private ColumnDef columnDef() {
    String col = ident();
    RawType t = type();
    boolean isStatic = accept("static");
    return new ColumnDef(col, t, isStatic, maskClause());
  }

  private Statement drop() {
    expect("drop");
    if (accept("keyspace") || accept("schema")) {
      boolean ie = ifExists();
      return new Statement.DropKeyspace(ident(), ie);
    }
    if (accept("table") || accept("columnfamily")) {
      boolean ie = ifExists();
      return new Statement.DropTable(qualifiedName(), ie);
    }
    if (accept("type")) {
      boolean ie = ifExists();
      return new Statement.DropType(qualifiedName(), ie);
    }
    if (accept("index")) {
      boolean ie = ifExists();
      return new Statement.DropIndex(qualifiedName(), ie);
    }
    Token t = peek();
    if (t.is("function") || t.is("aggregate")) {
      next();
      boolean ie = ifExists();
      QualifiedName name = qualifiedName();
      List<RawType> sig = null;
      if (accept("(")) {
        sig = new ArrayList<>();
        if (!at(")")) {
          do {
            sig.add(type());
          } while (accept(","));
        }
        expect(")");
      }
      return new Statement.DropFunction(name, t.is("aggregate"), ie, sig);
    }
    if (t.is("materialized")) {
      next();
      expect("view");
      boolean ie = ifExists();
      return new Statement.DropView(qualifiedName(), ie);
    }
    if (t.is("role") || t.is("user") || t.is("trigger")) {
      return unsupportedRest("DROP " + t.value().toUpperCase(Locale.ROOT));
    }
    throw noViable(t);
  }

  private boolean ifNotExists() {
    if (accept("if")) {
      expect("not");
      expect("exists");
      return true;
    }
    return false;
  }

  private boolean ifExists() {
    if (accept("if")) {
      expect("exists");
      return true;
    }
    return false;
  }

  private Properties emptyProperties() {
    return new Properties(new LinkedHashMap<>(), new LinkedHashMap<>(), false);
  }

  private Properties properties() {
    Map<String, Object> values = new LinkedHashMap<>();
    Map<String, Boolean> order = new LinkedHashMap<>();
    boolean compact = false;
    do {
      if (accept("clustering")) {
        expect("order");
        expect("by");
        expect("(");
        do {
          String c = ident();
          boolean desc = false;
          if (accept("desc")) {
            desc = true;
          } else {
            accept("asc");
          }
          order.put(c, desc);
        } while (accept(","));
        expect(")");
        continue;
      }
      if (accept("compact")) {
        expect("storage");
        compact = true;
        continue;
      }
      String name = ident();
      expect("=");
      Token v = peek();
      if (v.is("{")) {
        next();
        Map<String, String> m = new LinkedHashMap<>();
        if (!accept("}")) {
          do {
            String k = propertyConstant();
            expect(":");
            m.put(k, propertyConstant());
          } while (accept(","));
          expect("}");
        }
        if (values.containsKey(name)) {
          throw Errors.syntax("Multiple definitions for property '" + name + "'");
        }
        values.put(name, m);
      } else {
        if (values.containsKey(name)) {
          throw Errors.syntax("Multiple definitions for property '" + name + "'");
        }
        values.put(name, propertyConstant());
      }
    } while (accept("and"));
    return new Properties(values, order, compact);
  }

  private String propertyConstant() {
    Token t = next();
    return switch (t.kind()) {
      case STRING, INTEGER, FLOAT, IDENT, QUOTED_IDENT, UUID, HEX, DURATION -> t.value();
      default -> throw noViable(t);
    };
  }

  // ------------------------------------------------------------------ types

  private static final Set<String> NATIVE_TYPES = Set.of("ascii", "bigint", "blob", "boolean",
      "counter", "date", "decimal", "double", "duration", "float", "inet", "int", "smallint",
      "text", "time", "timestamp", "timeuuid", "tinyint", "uuid", "varchar", "varint");

  RawType type() {
    enter();
    try {
      return nestedType();
    } finally {
      depth--;
    }
  }

  private RawType nestedType() {
    Token t = peek();
    if (t.kind() == Kind.STRING) {
      next();
      return new RawType(null, "'" + t.value() + "'", List.of(), 0);
    }
    if (t.kind() == Kind.IDENT) {
      String n = t.value();
      if (NATIVE_TYPES.contains(n)) {
        next();
        return RawType.simple(n);
      }
      switch (n) {
        case "list", "set", "frozen" -> {
          next();
          expect("<");
          RawType e = type();
          expect(">");
          return new RawType(null, n, List.of(e), 0);
        }
        case "map" -> {
          next();
          expect("<");
          RawType k = type();
          expect(",");
          RawType v = type();
          expect(">");
          return new RawType(null, n, List.of(k, v), 0);
        }
        case "tuple" -> {
          next();
          expect("<");
          List<RawType> es = new ArrayList<>();
          do {
            es.add(type());
          } while (accept(","));
          expect(">");
          return new RawType(null, n, es, 0);
        }
        case "vector" -> {
          next();
          expect("<");
          RawType e = type();
          expect(",");
          Token d = next();
          if (d.kind() != Kind.INTEGER) {
            throw mismatched(d, "INTEGER");
          }
          expect(">");
          return new RawType(null, n, List.of(e), Integer.parseInt(d.value()));
        }
        default -> { }
      }
    }
    QualifiedName udt = qualifiedName();
    return new RawType(udt.keyspace(), udt.name(), List.of(), 0);
  }

  // ------------------------------------------------------------------ DML

  private Statement select() {
    expect("select");
    boolean json = false;
    if (at("json") && !peek(1).is("from") && !peek(1).is(",") && !peek(1).is("as")) {
      next();
      json = true;
    }
    boolean distinct = false;
    if (at("distinct") && !peek(1).is("from") && !peek(1).is(",") && !peek(1).is("as")) {
      next();
      distinct = true;
    }
    List<Selector.Aliased> selectors = new ArrayList<>();
    if (!accept("*")) {
      do {
        Selector s = selector();
        String alias = null;
        if (accept("as")) {
          alias = ident();
        }
        selectors.add(new Selector.Aliased(s, alias));
      } while (accept(","));
      if (!at("from")) {
        throw noViable(peek());
      }
    }
    expect("from");
    QualifiedName table = qualifiedName();
    List<Relation> where = List.of();
    if (accept("where")) {
      where = whereClause();
    }
    List<String> groupBy = new ArrayList<>();
    if (accept("group")) {
      expect("by");
      do {
        groupBy.add(ident());
      } while (accept(","));
    }
    List<Ordering> orderBy = new ArrayList<>();
    if (accept("order")) {
      expect("by");
      do {
        String c = ident();
        if (at("ann") && peek(1).is("of")) {
          // Cassandra 5.0's vector search: ORDER BY v ANN OF [...]
          next();
          next();
          orderBy.add(new Ordering(c, false, term()));
          continue;
        }
        boolean desc = accept("desc");
        if (!desc) {
          accept("asc");
        }
        orderBy.add(new Ordering(c, desc));
      } while (accept(","));
    }
    Term ppl = null;
    if (accept("per")) {
      expect("partition");
      expect("limit");
      ppl = limitValue();
    }
    Term limit = null;
    if (accept("limit")) {
      limit = limitValue();
    }
    boolean allowFiltering = false;
    if (accept("allow")) {
      expect("filtering");
      allowFiltering = true;
    }
    return new Statement.Select(table, json, distinct, selectors, where, groupBy, orderBy, ppl,
        limit, allowFiltering);
  }

  /** LIMIT takes an integer or a bind marker. */
  private Term limitValue() {
    Token t = peek();
    if (t.kind() == Kind.INTEGER) {
      next();
      return new Term.Literal(Constant.INTEGER, t.value());
    }
    if (t.kind() == Kind.QMARK || t.kind() == Kind.NAMED_MARKER) {
      return marker();
    }
    throw noViable(t);
  }

  /** Additive selector arithmetic over multiplicative terms, as Cassandra's grammar nests them. */
  private Selector selector() {
    int entered = depth;
    enter();
    Selector s = multiplicativeSelector();
    while (at("+") || at("-")) {
      char op = next().value().charAt(0);
      enter(); // each operator makes the left-deep tree one level deeper
      s = new Selector.Operation(op, s, multiplicativeSelector());
    }
    depth = entered;
    return s;
  }

  private Selector multiplicativeSelector() {
    int entered = depth;
    Selector s = fieldSelector();
    while (at("*") || at("/") || at("%")) {
      char op = next().value().charAt(0);
      enter();
      s = new Selector.Operation(op, s, fieldSelector());
    }
    depth = entered;
    return s;
  }

  private Selector fieldSelector() {
    int entered = depth;
    Selector s = unaliasedSelector();
    while (at(".") && peek(1).kind() != Kind.EOF) {
      next();
      enter();
      s = new Selector.FieldAccess(s, ident());
    }
    depth = entered;
    return s;
  }

  private Selector unaliasedSelector() {
    Token t = peek();
    if (t.kind() == Kind.IDENT && peek(1).is("(")) {
      String n = t.value();
      if (n.equals("count") && (peek(2).is("*") || (peek(2).kind() == Kind.INTEGER
          && peek(2).value().equals("1"))) && peek(3).is(")")) {
        pos += 4;
        return new Selector.CountStar();
      }
      if (n.equals("writetime") || n.equals("maxwritetime") || n.equals("ttl")) {
        pos += 2;
        String col = ident();
        expect(")");
        return new Selector.Metadata(n, col);
      }
      if (n.equals("cast")) {
        pos += 2;
        Selector arg = selector();
        expect("as");
        RawType type = type();
        expect(")");
        return new Selector.Cast(arg, type);
      }
      pos += 2;
      List<Selector> args = new ArrayList<>();
      if (!accept(")")) {
        do {
          args.add(selector());
        } while (accept(","));
        expect(")");
      }
      return new Selector.Function(null, n, args);
    }
    if ((t.kind() == Kind.IDENT || t.kind() == Kind.QUOTED_IDENT) && peek(1).is(".")
        && peek(2).kind() == Kind.IDENT && peek(3).is("(")) {
      String ks = t.value();
      pos += 2;
      String fn = next().value();
      next();
      List<Selector> args = new ArrayList<>();
      if (!accept(")")) {
        do {
          args.add(selector());
        } while (accept(","));
        expect(")");
      }
      return new Selector.Function(ks, fn, args);
    }
    if (atIdent() && !peek().is("true") && !peek().is("false")) {
      return new Selector.Column(ident());
    }
    if (t.kind() == Kind.IDENT && (t.value().equals("token") || t.value().equals("key"))) {
      next();
      return new Selector.Column(t.value());
    }
    return new Selector.Value(simpleTerm());
  }

  private Statement insert() {
    expect("insert");
    expect("into");
    QualifiedName table = qualifiedName();
    if (!at("json") && !at("(")) {
      throw noViable(peek());
    }
    if (accept("json")) {
      Term json = term();
      boolean defaultUnset = false;
      if (accept("default")) {
        if (accept("unset")) {
          defaultUnset = true;
        } else {
          expect("null");
        }
      }
      boolean ine = ifNotExistsAfterValues();
      Term[] using = using(true);
      return new Statement.Insert(table, List.of(), List.of(), json, defaultUnset, ine, using[0], using[1]);
    }
    expect("(");
    List<String> columns = new ArrayList<>();
    do {
      columns.add(ident());
    } while (accept(","));
    expect(")");
    expect("values");
    expect("(");
    List<Term> values = new ArrayList<>();
    do {
      values.add(term());
    } while (accept(","));
    expect(")");
    boolean ine = ifNotExistsAfterValues();
    Term[] using = using(true);
    return new Statement.Insert(table, columns, values, null, false, ine, using[0], using[1]);
  }

  private boolean ifNotExistsAfterValues() {
    return ifNotExists();
  }

  /** USING TTL x AND TIMESTAMP y: returns {ttl, timestamp}. */
  private Term[] using(boolean allowTtl) {
    Term[] r = new Term[2];
    if (accept("using")) {
      do {
        if (allowTtl && accept("ttl")) {
          r[0] = term();
        } else if (accept("timestamp")) {
          r[1] = term();
        } else {
          throw allowTtl ? noViable(peek()) : mismatched(peek(), "K_TIMESTAMP");
        }
      } while (accept("and"));
    }
    return r;
  }

  private Statement update() {
    expect("update");
    QualifiedName table = qualifiedName();
    Term[] using = using(true);
    expect("set");
    List<Operation> ops = new ArrayList<>();
    do {
      ops.add(operation());
    } while (accept(","));
    expect("where");
    List<Relation> where = whereClause();
    boolean ifExists = false;
    List<Condition> conditions = List.of();
    if (accept("if")) {
      if (accept("exists")) {
        ifExists = true;
      } else {
        conditions = conditions();
      }
    }
    return new Statement.Update(table, ops, where, conditions, ifExists, using[0], using[1]);
  }

  private Operation operation() {
    String col = ident();
    if (accept("[")) {
      Term k = term();
      expect("]");
      expect("=");
      return new Operation(Operation.Kind.SET_ELEMENT, col, k, null, term());
    }
    if (accept(".")) {
      String f = ident();
      expect("=");
      return new Operation(Operation.Kind.SET_FIELD, col, null, f, term());
    }
    if (accept("+=")) {
      return new Operation(Operation.Kind.ADD, col, null, null, term());
    }
    if (accept("-=")) {
      return new Operation(Operation.Kind.SUBTRACT, col, null, null, term());
    }
    expect("=");
    // c = c + v | c = c - v | c = v + c | c = v
    Token t = peek();
    if ((t.kind() == Kind.IDENT || t.kind() == Kind.QUOTED_IDENT) && t.value().equals(col)
        && (peek(1).is("+") || peek(1).is("-") || peek(1).kind() == Kind.INTEGER
        && peek(1).text().startsWith("-"))) {
      next();
      if (accept("+")) {
        return new Operation(Operation.Kind.ADD, col, null, null, simpleTerm());
      }
      if (accept("-")) {
        return new Operation(Operation.Kind.SUBTRACT, col, null, null, simpleTerm());
      }
      // "c = c -1": the lexer made "-1" an integer.
      Token n = next();
      return new Operation(Operation.Kind.SUBTRACT, col, null, null,
          new Term.Literal(Constant.INTEGER, n.value().substring(1)));
    }
    Term v = simpleTerm();
    if (accept("+")) {
      Token c = peek();
      if ((c.kind() == Kind.IDENT || c.kind() == Kind.QUOTED_IDENT) && c.value().equals(col)) {
        next();
        return new Operation(Operation.Kind.PREPEND, col, null, null, v);
      }
      throw Errors.invalid("Only expressions of the form X = <value> + X are supported.");
    }
    return new Operation(Operation.Kind.SET, col, null, null, v);
  }

  private List<Condition> conditions() {
    List<Condition> cs = new ArrayList<>();
    do {
      String col = ident();
      Term key = null;
      String field = null;
      if (accept("[")) {
        key = term();
        expect("]");
      } else if (accept(".")) {
        field = ident();
      }
      Operator op = operator(true);
      if (op == Operator.IN) {
        if (accept("(")) {
          List<Term> vs = new ArrayList<>();
          if (!accept(")")) {
            do {
              vs.add(term());
            } while (accept(","));
            expect(")");
          }
          cs.add(new Condition(col, key, field, op, null, vs));
        } else {
          cs.add(new Condition(col, key, field, op, marker(), null));
        }
      } else {
        cs.add(new Condition(col, key, field, op, term(), null));
      }
    } while (accept("and"));
    return cs;
  }

  private Statement delete() {
    expect("delete");
    List<DeleteTarget> targets = new ArrayList<>();
    if (!at("from")) {
      do {
        String col = ident();
        if (accept("[")) {
          Term k = term();
          expect("]");
          targets.add(new DeleteTarget(col, k, null));
        } else if (accept(".")) {
          targets.add(new DeleteTarget(col, null, ident()));
        } else {
          targets.add(new DeleteTarget(col, null, null));
        }
      } while (accept(","));
    }
    expect("from");
    QualifiedName table = qualifiedName();
    if (!at("using") && !at("where")) {
      throw noViable(peek());
    }
    Term[] using = using(false);
    expect("where");
    List<Relation> where = whereClause();
    boolean ifExists = false;
    List<Condition> conditions = List.of();
    if (accept("if")) {
      if (accept("exists")) {
        ifExists = true;
      } else {
        conditions = conditions();
      }
    }
    return new Statement.Delete(table, targets, where, conditions, ifExists, using[1]);
  }

  private Statement batch() {
    expect("begin");
    int type = Statement.Batch.LOGGED;
    if (accept("unlogged")) {
      type = Statement.Batch.UNLOGGED;
    } else if (accept("counter")) {
      type = Statement.Batch.COUNTER;
    }
    expect("batch");
    Term[] using = using(false);
    List<Statement> statements = new ArrayList<>();
    while (!at("apply")) {
      Token t = peek();
      Statement s;
      if (t.is("insert")) {
        s = insert();
      } else if (t.is("update")) {
        s = update();
      } else if (t.is("delete")) {
        s = delete();
      } else {
        throw mismatched(t, "K_APPLY");
      }
      statements.add(s);
      accept(";");
    }
    expect("apply");
    expect("batch");
    return new Statement.Batch(type, using[1], statements);
  }

  // ------------------------------------------------------------------ WHERE

  private List<Relation> whereClause() {
    List<Relation> rs = new ArrayList<>();
    do {
      rs.add(relation());
    } while (accept("and"));
    return rs;
  }

  private Relation relation() {
    Token t = peek();
    if (t.is("token") && peek(1).is("(")) {
      next();
      next();
      List<String> cols = new ArrayList<>();
      do {
        cols.add(ident());
      } while (accept(","));
      expect(")");
      Operator op = operator(false);
      return new Relation(Relation.Kind.TOKEN, cols, null, op, term(), null);
    }
    if (t.is("(")) {
      next();
      List<String> cols = new ArrayList<>();
      do {
        cols.add(ident());
      } while (accept(","));
      expect(")");
      Operator op = operator(false);
      if (op == Operator.IN) {
        if (accept("(")) {
          List<Term> vs = new ArrayList<>();
          if (!accept(")")) {
            do {
              vs.add(term());
            } while (accept(","));
            expect(")");
          }
          return new Relation(Relation.Kind.MULTI, cols, null, op, null, vs);
        }
        return new Relation(Relation.Kind.MULTI, cols, null, op, marker(), null);
      }
      return new Relation(Relation.Kind.MULTI, cols, null, op, term(), null);
    }
    String col;
    if (t.kind() == Kind.IDENT && (t.value().equals("key") || t.value().equals("token"))) {
      next();
      col = t.value();
    } else {
      col = ident();
    }
    if (accept("[")) {
      Term k = term();
      expect("]");
      Operator op = operator(false);
      return new Relation(Relation.Kind.MAP_ELEMENT, List.of(col), k, op, term(), null);
    }
    if (accept("is")) {
      expect("not");
      expect("null");
      return new Relation(Relation.Kind.SINGLE, List.of(col), null, Operator.IS_NOT_NULL, null, null);
    }
    Operator op = operator(false);
    if (op == Operator.IN) {
      if (accept("(")) {
        List<Term> vs = new ArrayList<>();
        if (!accept(")")) {
          do {
            vs.add(term());
          } while (accept(","));
          expect(")");
        }
        return new Relation(Relation.Kind.SINGLE, List.of(col), null, op, null, vs);
      }
      return new Relation(Relation.Kind.SINGLE, List.of(col), null, op, marker(), null);
    }
    return new Relation(Relation.Kind.SINGLE, List.of(col), null, op, term(), null);
  }

  private Term marker() {
    Token t = peek();
    if (t.kind() == Kind.QMARK) {
      next();
      return new Term.BindMarker(markers++, null);
    }
    if (t.kind() == Kind.NAMED_MARKER) {
      next();
      return new Term.BindMarker(markers++, t.value());
    }
    throw noViable(t);
  }

  private Operator operator(boolean condition) {
    Token t = next();
    if (t.kind() == Kind.SYMBOL) {
      switch (t.value()) {
        case "=": return Operator.EQ;
        case "<": return Operator.LT;
        case "<=": return Operator.LTE;
        case ">": return Operator.GT;
        case ">=": return Operator.GTE;
        case "!=": return Operator.NEQ;
        default: break;
      }
    } else if (t.kind() == Kind.IDENT) {
      switch (t.value()) {
        case "in": return Operator.IN;
        case "contains":
          return accept("key") ? Operator.CONTAINS_KEY : Operator.CONTAINS;
        case "like": return Operator.LIKE;
        default: break;
      }
    }
    throw noViable(t);
  }

  // ------------------------------------------------------------------ terms

  Term term() {
    int entered = depth;
    enter();
    Term left = simpleTerm();
    while ((at("+") || at("-") || at("*") || at("/") || at("%"))) {
      char op = next().value().charAt(0);
      enter(); // each operator makes the left-deep tree one level deeper
      left = new Term.Arithmetic(op, left, simpleTerm());
    }
    depth = entered;
    return left;
  }

  private Term simpleTerm() {
    Token t = peek();
    switch (t.kind()) {
      case STRING:
        next();
        return new Term.Literal(Constant.STRING, t.value());
      case INTEGER:
        next();
        return new Term.Literal(Constant.INTEGER, t.value());
      case FLOAT:
        next();
        return new Term.Literal(Constant.FLOAT, t.value());
      case UUID:
        next();
        return new Term.Literal(Constant.UUID, t.value());
      case HEX:
        next();
        return new Term.Literal(Constant.HEX, t.value());
      case DURATION:
        next();
        return new Term.Literal(Constant.DURATION, t.value());
      case QMARK:
      case NAMED_MARKER:
        return marker();
      case IDENT:
        if (t.value().equals("true") || t.value().equals("false")) {
          next();
          return new Term.Literal(Constant.BOOLEAN, t.value());
        }
        if (t.value().equals("null")) {
          next();
          return new Term.Null();
        }
        if (t.value().equals("nan") || t.value().equals("infinity")) {
          next();
          return new Term.Literal(Constant.FLOAT, t.text());
        }
        return functionOrColumn();
      case QUOTED_IDENT:
        return functionOrColumn();
      case SYMBOL:
        break;
      default:
        throw noViable(t);
    }
    if (t.is("-")) {
      next();
      enter();
      Term negated = new Term.Negate(simpleTerm());
      depth--;
      return negated;
    }
    if (t.is("[")) {
      next();
      List<Term> es = new ArrayList<>();
      if (!accept("]")) {
        do {
          es.add(term());
        } while (accept(","));
        expect("]");
      }
      return new Term.ListLiteral(es);
    }
    if (t.is("{")) {
      next();
      if (accept("}")) {
        return new Term.MapLiteral(List.of(), List.of());
      }
      if ((peek().kind() == Kind.IDENT || peek().kind() == Kind.QUOTED_IDENT) && peek(1).is(":")
          && !peek().is("true") && !peek().is("false") && !peek().is("null")) {
        List<String> fields = new ArrayList<>();
        List<Term> values = new ArrayList<>();
        do {
          fields.add(ident());
          expect(":");
          values.add(term());
        } while (accept(","));
        expect("}");
        return new Term.UdtLiteral(fields, values);
      }
      Term first = term();
      if (accept(":")) {
        List<Term> keys = new ArrayList<>(List.of(first));
        List<Term> values = new ArrayList<>(List.of(term()));
        while (accept(",")) {
          keys.add(term());
          expect(":");
          values.add(term());
        }
        expect("}");
        return new Term.MapLiteral(keys, values);
      }
      List<Term> es = new ArrayList<>(List.of(first));
      while (accept(",")) {
        es.add(term());
      }
      expect("}");
      return new Term.SetLiteral(es);
    }
    if (t.is("(")) {
      next();
      Token n = peek();
      if (n.kind() == Kind.IDENT && (NATIVE_TYPES.contains(n.value()) || n.value().equals("frozen")
          || n.value().equals("list") || n.value().equals("set") || n.value().equals("map")
          || n.value().equals("tuple") || n.value().equals("vector"))
          && (peek(1).is(")") || peek(1).is("<"))) {
        RawType type = type();
        expect(")");
        enter();
        Term hinted = new Term.TypeHint(type, simpleTerm());
        depth--;
        return hinted;
      }
      List<Term> es = new ArrayList<>();
      do {
        es.add(term());
      } while (accept(","));
      expect(")");
      return new Term.TupleLiteral(es);
    }
    throw noViable(t);
  }

  private Term functionOrColumn() {
    Token t = next();
    String name = t.value();
    String ks = null;
    if (at(".") && peek(1).kind() == Kind.IDENT && peek(2).is("(")) {
      next();
      ks = name;
      name = next().value();
    }
    if (accept("(")) {
      List<Term> args = new ArrayList<>();
      if (!accept(")")) {
        do {
          args.add(term());
        } while (accept(","));
        expect(")");
      }
      return new Term.FunctionCall(ks, name, args);
    }
    if (t.kind() == Kind.IDENT && RESERVED.contains(name)) {
      throw noViable(t);
    }
    return new Term.ColumnRef(name);
  }
}
