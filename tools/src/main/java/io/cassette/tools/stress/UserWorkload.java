package io.cassette.tools.stress;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchStatementBuilder;
import com.datastax.oss.driver.api.core.cql.BatchType;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.ColumnDefinition;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.metadata.schema.ColumnMetadata;
import com.datastax.oss.driver.api.core.metadata.schema.KeyspaceMetadata;
import com.datastax.oss.driver.api.core.metadata.schema.TableMetadata;
import com.datastax.oss.driver.api.core.type.DataType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The {@code user profile=FILE.yaml ops(insert=1,q1=2)} command: the profile's schema, an
 * "insert" operation writing one whole partition per seed, and the profile's queries.
 */
public final class UserWorkload implements Workload {
  /** Rows of one generated partition, at most, whatever the cluster distributions say. */
  static final int MAX_ROWS_PER_PARTITION = 1000;

  private final StressSettings settings;
  private final UserProfile profile;

  private UserWorkload(StressSettings settings, UserProfile profile) {
    this.settings = settings;
    this.profile = profile;
  }

  /** Loads the profile named by profile= and checks that ops(...) names its operations. */
  public static UserWorkload load(StressSettings settings) {
    UserProfile profile = UserProfile.load(settings.command().profile());
    for (String op : settings.command().ratios().keySet()) {
      if (!op.equals("insert") && !profile.queries().containsKey(op)) {
        throw new ArgumentException("ops(...) names '" + op + "', which profile " + profile.file()
            + " does not define; accepted: insert" + (profile.queries().isEmpty() ? "" : ", "
            + String.join(", ", profile.queries().keySet())));
      }
    }
    return new UserWorkload(settings, profile);
  }

  @Override
  public String description() {
    return settings.command().ratios().keySet().toString();
  }

  @Override
  public String keyspace() {
    return profile.keyspace();
  }

  @Override
  public void createSchema(CqlSession session, ResultLogger output) {
    boolean created = false;
    Optional<KeyspaceMetadata> ks = session.getMetadata().getKeyspace(quoteIfNeeded(profile.keyspace()));
    if (ks.isEmpty() && profile.keyspaceDefinition() != null) {
      session.execute(profile.keyspaceDefinition());
      created = true;
    }
    boolean tableExists = ks.isPresent() && ks.get().getTable(quoteIfNeeded(profile.table())).isPresent();
    if (!tableExists && profile.tableDefinition() != null) {
      session.execute("USE " + quoteIfNeeded(profile.keyspace()));
      String def = profile.tableDefinition();
      if (!def.toUpperCase(Locale.ROOT).contains("IF NOT EXISTS")) {
        def = def.replaceFirst("(?i)CREATE\\s+TABLE", "CREATE TABLE IF NOT EXISTS");
      }
      session.execute(def);
      created = true;
    }
    if (created) {
      output.println(String.format("Created schema. Sleeping %ss for propagation.", settings.nodes().size()));
      StressRunner.sleepSeconds(settings.nodes().size());
    }
  }

  @Override
  public List<String> tables() {
    return List.of(profile.table());
  }

  @Override
  public List<StressOperation> operations(CqlSession session) {
    Columns columns = Columns.of(session, profile);
    ConsistencyLevel cl = DefaultConsistencyLevel.valueOf(settings.command().consistency());
    List<StressOperation> ops = new ArrayList<>();
    for (String name : settings.command().ratios().keySet()) {
      ops.add(name.equals("insert") ? new Insert(session, columns, cl)
          : new Query(name, session.prepare(profile.queries().get(name)), session, columns, cl));
    }
    return ops;
  }

  @Override
  public List<Double> weights() {
    return new ArrayList<>(settings.command().ratios().values());
  }

  private static String quoteIfNeeded(String name) {
    return name.equals(name.toLowerCase(Locale.ROOT)) ? name : "\"" + name + "\"";
  }

  /** The table's columns and types (from SELECT * metadata) and which are clustering columns. */
  private record Columns(List<String> names, List<DataType> types, Set<String> partitionKey,
      Set<String> clustering, Map<String, Distribution> sizes, Map<String, Distribution> clusters,
      String table) {

    static Columns of(CqlSession session, UserProfile profile) {
      String table = quoteIfNeeded(profile.table());
      PreparedStatement all = session.prepare("SELECT * FROM " + table);
      List<String> names = new ArrayList<>();
      List<DataType> types = new ArrayList<>();
      for (ColumnDefinition c : all.getResultSetDefinitions()) {
        names.add(c.getName().asInternal());
        types.add(c.getType());
      }
      // Without schema metadata (a server without system_schema) every column is treated as a
      // partition key column: one row per partition.
      Set<String> partitionKey = new HashSet<>(names);
      Set<String> clustering = new HashSet<>();
      Optional<TableMetadata> meta = session.getMetadata().getKeyspace(quoteIfNeeded(profile.keyspace()))
          .flatMap(k -> k.getTable(table));
      if (meta.isPresent()) {
        partitionKey.clear();
        for (ColumnMetadata c : meta.get().getPartitionKey()) {
          partitionKey.add(c.getName().asInternal());
        }
        for (ColumnMetadata c : meta.get().getClusteringColumns().keySet()) {
          clustering.add(c.getName().asInternal());
        }
      }
      return new Columns(names, types, partitionKey, clustering, profile.columnSizes(), profile.clusters(), table);
    }

    int size(String column, SplittableRandom r) {
      Distribution d = sizes.get(column.toLowerCase(Locale.ROOT));
      return (int) (d != null ? d : Distribution.parse(UserProfile.DEFAULT_SIZE)).next(r);
    }

    /** The value of {@code column} in row {@code row} of the partition of {@code seed}. */
    Object value(long seed, int row, String column, DataType type) {
      SplittableRandom r = ColumnValues.random(seed, partitionKey.contains(column) ? 0 : row, column);
      return ColumnValues.generate(type, size(column, r), r, column);
    }

    int rows(long seed) {
      long rows = 1;
      for (String c : clustering) {
        Distribution d = clusters.get(c.toLowerCase(Locale.ROOT));
        if (d != null) {
          rows *= Math.max(1, d.next(ColumnValues.random(seed, -1, c)));
        }
      }
      return (int) Math.min(rows, MAX_ROWS_PER_PARTITION);
    }
  }

  /** Writes the whole partition of a seed: one INSERT, or a batch of them. */
  private final class Insert implements StressOperation {
    private final CqlSession session;
    private final Columns columns;
    private final PreparedStatement insert;
    private final ConsistencyLevel cl;

    Insert(CqlSession session, Columns columns, ConsistencyLevel cl) {
      this.session = session;
      this.columns = columns;
      this.cl = cl;
      StringBuilder q = new StringBuilder("INSERT INTO ").append(columns.table()).append(" (");
      StringBuilder marks = new StringBuilder();
      for (int i = 0; i < columns.names().size(); i++) {
        q.append(i > 0 ? "," : "").append('"').append(columns.names().get(i)).append('"');
        marks.append(i > 0 ? "," : "").append('?');
      }
      this.insert = session.prepare(q.append(") VALUES (").append(marks).append(')').toString());
    }

    @Override
    public String name() {
      return "insert";
    }

    @Override
    public long execute(long seed) {
      int rows = columns.rows(seed);
      if (rows == 1) {
        session.execute(bind(seed, 0));
        return 1;
      }
      BatchStatementBuilder batch = BatchStatement.builder(
          profile.batchType().equals("LOGGED") ? BatchType.LOGGED : BatchType.UNLOGGED);
      for (int row = 0; row < rows; row++) {
        batch.addStatement(bind(seed, row));
      }
      session.execute(batch.setConsistencyLevel(cl).build());
      return rows;
    }

    private BoundStatement bind(long seed, int row) {
      Object[] values = new Object[columns.names().size()];
      for (int i = 0; i < values.length; i++) {
        values[i] = columns.value(seed, row, columns.names().get(i), columns.types().get(i));
      }
      return insert.bind(values).setConsistencyLevel(cl);
    }
  }

  /** One of the profile's queries, its markers bound to the seed partition's first row. */
  private static final class Query implements StressOperation {
    private final String name;
    private final PreparedStatement statement;
    private final CqlSession session;
    private final Columns columns;
    private final ConsistencyLevel cl;

    Query(String name, PreparedStatement statement, CqlSession session, Columns columns, ConsistencyLevel cl) {
      this.name = name;
      this.statement = statement;
      this.session = session;
      this.columns = columns;
      this.cl = cl;
      for (ColumnDefinition v : statement.getVariableDefinitions()) {
        if (!columns.names().contains(v.getName().asInternal())) {
          throw new ArgumentException("Query '" + name + "' binds '" + v.getName().asInternal()
              + "', which is not a column of " + columns.table() + "; only column markers can be generated");
        }
      }
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public long execute(long seed) {
      Object[] values = new Object[statement.getVariableDefinitions().size()];
      int i = 0;
      for (ColumnDefinition v : statement.getVariableDefinitions()) {
        values[i++] = columns.value(seed, 0, v.getName().asInternal(), v.getType());
      }
      ResultSet rs = session.execute(statement.bind(values).setConsistencyLevel(cl));
      long rows = 0;
      for (Row ignored : rs) {
        rows++;
      }
      return rows;
    }
  }
}
