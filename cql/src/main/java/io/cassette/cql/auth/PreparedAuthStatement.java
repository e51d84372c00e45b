package io.cassette.cql.auth;

import io.cassette.cql.ColumnSpec;
import io.cassette.cql.Result;
import io.cassette.cql.language.statements.Executable;
import io.cassette.cql.language.statements.QueryContext;
import java.util.List;
import java.util.function.Supplier;

/**
 * A role or permission statement prepared (PREPARE, or a driver's SimpleStatement run as
 * prepared): Cassandra 5.0 prepares them with no variables, since its grammar has no bind
 * marker in them ({@link AuthStatementParser} refuses one as Cassandra does), and no result
 * metadata (LIST answers carry theirs). Each EXECUTE runs it again with the executing client's
 * permissions, like the statement sent as a QUERY.
 */
public final class PreparedAuthStatement implements Executable {
  private final AuthStatement statement;
  /** The keyspace when it was prepared (a table named without one in GRANT ... ON t). */
  private final String keyspace;
  /** The language's access control now (it is replaced once, when auth is configured). */
  private final Supplier<AccessControl> access;

  public PreparedAuthStatement(AuthStatement statement, String keyspace, Supplier<AccessControl> access) {
    this.statement = statement;
    this.keyspace = keyspace;
    this.access = access;
  }

  @Override
  public Result execute(QueryContext ctx) {
    return access.get().execute(statement, ctx.state, keyspace);
  }

  @Override
  public List<ColumnSpec> variables() {
    return List.of();
  }
}
