package io.cassette.cql.language.parser;

import java.util.List;
import java.util.Map;

/** The parsed statements of the CQL dialect. Names are already case-normalized. */
public sealed interface Statement {

  /** keyspace.name with the keyspace null when the statement omitted it. */
  record QualifiedName(String keyspace, String name) {
    @Override
    public String toString() {
      return keyspace == null ? name : keyspace + "." + name;
    }
  }

  /** WITH options: name → String constant or Map&lt;String,String&gt;. */
  record Properties(Map<String, Object> values, Map<String, Boolean> clusteringOrder,
                    boolean compactStorage) {}

  record ColumnDef(String name, RawType type, boolean isStatic, ColumnMaskDef mask) {
    ColumnDef(String name, RawType type, boolean isStatic) {
      this(name, type, isStatic, null);
    }
  }

  /** A column's MASKED WITH clause: the masking function and its arguments after the column. */
  record ColumnMaskDef(QualifiedName function, List<Term> arguments) {}

  /** ALTER TABLE t ALTER c MASKED WITH ... ({@code mask} set) or ALTER c DROP MASKED (null). */
  record AlterColumnMask(QualifiedName name, boolean ifExists, String column, ColumnMaskDef mask)
      implements Statement {}

  record Use(String keyspace) implements Statement {}

  record CreateKeyspace(String name, boolean ifNotExists, Properties props) implements Statement {}

  record AlterKeyspace(String name, boolean ifExists, Properties props) implements Statement {}

  record DropKeyspace(String name, boolean ifExists) implements Statement {}

  record CreateTable(QualifiedName name, boolean ifNotExists, List<ColumnDef> columns,
                     List<String> partitionKey, List<String> clusteringKey, Properties props)
      implements Statement {}

  record AlterTable(QualifiedName name, boolean ifExists, AlterKind kind, boolean ifColumnFlag,
                    List<ColumnDef> added, List<String> dropped, Map<String, String> renamed,
                    RawType alteredType, Properties props) implements Statement {}

  enum AlterKind { ADD, DROP, ALTER, RENAME, WITH }

  record DropTable(QualifiedName name, boolean ifExists) implements Statement {}

  record CreateType(QualifiedName name, boolean ifNotExists, List<String> fieldNames,
                    List<RawType> fieldTypes) implements Statement {}

  record AlterType(QualifiedName name, boolean ifExists, boolean add, String field, RawType type,
                   Map<String, String> renamed) implements Statement {}

  record DropType(QualifiedName name, boolean ifExists) implements Statement {}

  record CreateIndex(String indexName, QualifiedName table, boolean ifNotExists, String column,
                     String target, String customClass, Properties props) implements Statement {}

  record DropIndex(QualifiedName name, boolean ifExists) implements Statement {}

  record Truncate(QualifiedName table) implements Statement {}

  record Insert(QualifiedName table, List<String> columns, List<Term> values, Term json,
                boolean defaultUnset, boolean ifNotExists, Term ttl, Term timestamp)
      implements Statement {}

  record Update(QualifiedName table, List<Operation> operations, List<Relation> where,
                List<Condition> conditions, boolean ifExists, Term ttl, Term timestamp)
      implements Statement {}

  /** A DELETE target: a column, an element {@code c[k]} or a field {@code c.f}. */
  record DeleteTarget(String column, Term key, String field) {}

  record Delete(QualifiedName table, List<DeleteTarget> targets, List<Relation> where,
                List<Condition> conditions, boolean ifExists, Term timestamp) implements Statement {}

  record Batch(int type, Term timestamp, List<Statement> statements) implements Statement {
    public static final int LOGGED = 0;
    public static final int UNLOGGED = 1;
    public static final int COUNTER = 2;
  }

  record Ordering(String column, boolean descending, Term ann) {
    public Ordering(String column, boolean descending) {
      this(column, descending, null);
    }
  }

  record Select(QualifiedName table, boolean json, boolean distinct, List<Selector.Aliased> selectors,
                List<Relation> where, List<String> groupBy, List<Ordering> orderBy,
                Term perPartitionLimit, Term limit, boolean allowFiltering) implements Statement {}

  /**
   * DESCRIBE: {@code what} is one of SCHEMA, KEYSPACES, KEYSPACE, TABLES, TABLE, TYPES, TYPE,
   * INDEX, CLUSTER, FUNCTIONS, AGGREGATES or NAME (a keyspace or table, resolved at run time).
   */
  record Describe(String what, QualifiedName name, boolean full) implements Statement {}

  /**
   * CREATE MATERIALIZED VIEW: {@code selectors} empty for *, {@code where} the base rows the
   * view holds, the view's primary key, and its table options.
   */
  record CreateView(QualifiedName name, boolean ifNotExists, List<Selector.Aliased> selectors,
                    QualifiedName base, List<Relation> where, List<String> partitionKey,
                    List<String> clusteringKey, Properties props) implements Statement {}

  /** ALTER MATERIALIZED VIEW [IF EXISTS] v WITH options. */
  record AlterView(QualifiedName name, boolean ifExists, Properties props) implements Statement {}

  /** DROP MATERIALIZED VIEW [IF EXISTS] v. */
  record DropView(QualifiedName name, boolean ifExists) implements Statement {}

  /**
   * CREATE [OR REPLACE] FUNCTION [IF NOT EXISTS] ks.f(a type, ...) CALLED|RETURNS NULL ON NULL
   * INPUT RETURNS type LANGUAGE lang AS 'body'.
   */
  record CreateFunction(QualifiedName name, boolean orReplace, boolean ifNotExists, List<String> argNames,
                        List<RawType> argTypes, boolean calledOnNullInput, RawType returnType, String language,
                        String body) implements Statement {}

  /**
   * CREATE [OR REPLACE] AGGREGATE [IF NOT EXISTS] ks.a(type, ...) SFUNC f STYPE type [FINALFUNC g]
   * [INITCOND term].
   */
  record CreateAggregate(QualifiedName name, boolean orReplace, boolean ifNotExists, List<RawType> argTypes,
                         String stateFunction, RawType stateType, String finalFunction, Term initcond)
      implements Statement {}

  /** DROP FUNCTION|AGGREGATE [IF EXISTS] ks.f [(type, ...)]: {@code argTypes} null when no signature was given. */
  record DropFunction(QualifiedName name, boolean aggregate, boolean ifExists, List<RawType> argTypes)
      implements Statement {}

  /** A statement Cassette parses but does not run (roles, permissions, functions, views...). */
  record Unsupported(String what) implements Statement {}
}
