package io.cassette.tools.stress;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.cql.Statement;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The predefined operations on keyspace1, with cassandra-stress's CQL:
 * <pre>
 * WRITE          UPDATE "standard1" SET "C0" = ?,"C1" = ?,... WHERE KEY=?
 * READ           SELECT "C0","C1",... FROM "standard1" WHERE KEY=?     (SELECT * with -col slice)
 * COUNTER_WRITE  UPDATE "counter1" SET "C0"="C0"+?,... WHERE KEY=?
 * COUNTER_READ   SELECT * FROM "counter1" WHERE KEY=?
 * </pre>
 * A read checks every cell against what the seed's write stored; a counter read checks that
 * the row exists. With a variable column count (-col n=UNIFORM(..)) there is one statement
 * per count.
 */
public final class PredefinedOperations {
  private PredefinedOperations() {}

  /** The operation for {@code command} (not MIXED or USER), prepared on {@code session}. */
  public static StressOperation create(Command command, CqlSession session, StressSettings settings) {
    return switch (command) {
      case WRITE -> new Cql(command, session, settings) {
        @Override
        String cql(int columns) {
          StringBuilder q = new StringBuilder("UPDATE ").append(quote(command.table)).append(" SET ");
          for (int i = 0; i < columns; i++) {
            q.append(i > 0 ? "," : "").append(quote(names.get(i))).append(" = ?");
          }
          return q.append(" WHERE KEY=?").toString();
        }

        @Override
        long run(long seed, int columns) {
          Object[] values = new Object[columns + 1];
          for (int i = 0; i < columns; i++) {
            values[i] = generator.value(seed, i);
          }
          values[columns] = ByteBuffer.wrap(generator.key(seed));
          session.execute(statement(columns, values));
          return 1;
        }
      };
      case READ -> new Cql(command, session, settings) {
        @Override
        String cql(int columns) {
          StringBuilder q = new StringBuilder("SELECT ");
          if (settings.columns().slice()) {
            q.append('*');
          } else {
            for (int i = 0; i < columns; i++) {
              q.append(i > 0 ? "," : "").append(quote(names.get(i)));
            }
          }
          return q.append(" FROM ").append(quote(command.table)).append(" WHERE KEY=?").toString();
        }

        @Override
        long run(long seed, int columns) {
          byte[] key = generator.key(seed);
          ResultSet rs = session.execute(statement(columns, new Object[] {ByteBuffer.wrap(key)}));
          Row row = rs.one();
          if (row == null || rs.one() != null) {
            throw invalid(key);
          }
          for (int i = 0; i < columns; i++) {
            ByteBuffer actual = row.getByteBuffer(quote(names.get(i)));
            if (actual == null || !actual.equals(generator.value(seed, i))) {
              throw invalid(key);
            }
          }
          return 1;
        }
      };
      case COUNTER_WRITE -> new Cql(command, session, settings) {
        private final ThreadLocal<SplittableRandom> random =
            ThreadLocal.withInitial(() -> new SplittableRandom(System.nanoTime()));

        @Override
        String cql(int columns) {
          StringBuilder q = new StringBuilder("UPDATE ").append(quote(command.table)).append(" SET ");
          for (int i = 0; i < columns; i++) {
            String name = quote(names.get(i));
            q.append(i > 0 ? "," : "").append(name).append('=').append(name).append("+?");
          }
          return q.append(" WHERE KEY=?").toString();
        }

        @Override
        long run(long seed, int columns) {
          Object[] values = new Object[columns + 1];
          SplittableRandom r = random.get();
          for (int i = 0; i < columns; i++) {
            values[i] = settings.command().add().next(r);
          }
          values[columns] = ByteBuffer.wrap(generator.key(seed));
          session.execute(statement(columns, values));
          return 1;
        }
      };
      case COUNTER_READ -> new Cql(command, session, settings) {
        @Override
        String cql(int columns) {
          return "SELECT * FROM " + quote(command.table) + " WHERE KEY=?";
        }

        @Override
        long run(long seed, int columns) {
          byte[] key = generator.key(seed);
          ResultSet rs = session.execute(statement(columns, new Object[] {ByteBuffer.wrap(key)}));
          if (rs.one() == null) {
            throw invalid(key);
          }
          return 1;
        }
      };
      default -> throw new IllegalArgumentException("not a predefined operation: " + command);
    };
  }

  /** "name" with embedded quotes doubled: the identifiers stress uses are case-sensitive. */
  static String quote(String identifier) {
    return "\"" + identifier.replace("\"", "\"\"") + "\"";
  }

  /** Common parts: the statements per column count, consistency, binding. */
  private abstract static class Cql implements StressOperation {
    final Command command;
    final CqlSession session;
    final StressSettings settings;
    final KeyValueGenerator generator;
    final List<String> names;
    private final ConsistencyLevel consistency;
    private final boolean prepared;
    /** Index = column count; null where that count never occurs. */
    private final List<PreparedStatement> statements = new ArrayList<>();
    private final List<String> texts = new ArrayList<>();

    Cql(Command command, CqlSession session, StressSettings settings) {
      this.command = command;
      this.session = session;
      this.settings = settings;
      this.generator = new KeyValueGenerator(settings.columns());
      this.names = settings.columns().names();
      this.consistency = DefaultConsistencyLevel.valueOf(settings.command().consistency());
      this.prepared = settings.mode().prepared();
      int min = (int) settings.columns().count().min();
      int max = (int) settings.columns().count().max();
      for (int n = 0; n <= max; n++) {
        String text = n >= min ? cql(n) : null;
        texts.add(text);
        statements.add(text != null && prepared ? session.prepare(text) : null);
      }
    }

    abstract String cql(int columns);

    abstract long run(long seed, int columns);

    @Override
    public String name() {
      return command.name();
    }

    @Override
    public long execute(long seed) {
      return run(seed, generator.columnCount(seed));
    }

    Statement<?> statement(int columns, Object[] values) {
      Statement<?> s = prepared ? statements.get(columns).bind(values)
          : SimpleStatement.newInstance(texts.get(columns), values);
      return s.setConsistencyLevel(consistency);
    }

    ValidationFailure invalid(byte[] key) {
      return new ValidationFailure("Operation " + command.name() + " on key(s) [" + HexFormat.of().formatHex(key)
          + "]: Data returned was not validated");
    }
  }
}
