package io.cassette.tools.stress;

import com.datastax.oss.driver.api.core.CqlSession;
import java.util.ArrayList;
import java.util.List;

/** The predefined commands on keyspace1.standard1 and counter1; mixed picks among them. */
public final class PredefinedWorkload implements Workload {
  private final StressSettings settings;

  public PredefinedWorkload(StressSettings settings) {
    this.settings = settings;
  }

  @Override
  public String description() {
    return settings.command().type().name();
  }

  @Override
  public String keyspace() {
    return settings.schema().keyspace();
  }

  @Override
  public void createSchema(CqlSession session, ResultLogger output) {
    Command type = settings.command().type();
    if (type != Command.WRITE && type != Command.COUNTER_WRITE) {
      return; // cassandra-stress creates the schema only for the write commands
    }
    session.execute(PredefinedSchema.createKeyspace(settings.schema()));
    session.execute(PredefinedSchema.createStandard1(settings));
    session.execute(PredefinedSchema.createCounter1(settings));
    output.println(String.format("Created keyspaces. Sleeping %ss for propagation.", settings.nodes().size()));
    StressRunner.sleepSeconds(settings.nodes().size());
  }

  @Override
  public List<String> tables() {
    Command type = settings.command().type();
    if (type == Command.MIXED) {
      List<String> tables = new ArrayList<>();
      for (String op : settings.command().ratios().keySet()) {
        String t = Command.valueOf(op).table;
        if (!tables.contains(t)) {
          tables.add(t);
        }
      }
      return tables;
    }
    return List.of(type.table);
  }

  @Override
  public List<StressOperation> operations(CqlSession session) {
    List<StressOperation> ops = new ArrayList<>();
    if (settings.command().type() == Command.MIXED) {
      for (String op : settings.command().ratios().keySet()) {
        ops.add(PredefinedOperations.create(Command.valueOf(op), session, settings));
      }
    } else {
      ops.add(PredefinedOperations.create(settings.command().type(), session, settings));
    }
    return ops;
  }

  @Override
  public List<Double> weights() {
    if (settings.command().type() == Command.MIXED) {
      return new ArrayList<>(settings.command().ratios().values());
    }
    return List.of(1.0);
  }
}
