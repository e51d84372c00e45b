package io.cassette.tools.stress;

import com.datastax.oss.driver.api.core.CqlSession;
import java.util.List;

/**
 * What a run does, apart from how hard: the schema it needs, the tables truncate= empties, and
 * the weighted operations. {@link PredefinedWorkload} for write/read/mixed/counter_*,
 * {@link UserWorkload} for a YAML profile.
 */
public interface Workload {
  /** The name in "Running WRITE with 50 threads ..." and "Warming up ...". */
  String description();

  /** The keyspace the operations' session uses. */
  String keyspace();

  /** Creates the keyspace and tables if this command creates them (writes and user profiles). */
  void createSchema(CqlSession session, ResultLogger output);

  /** The tables truncate= empties, in the keyspace. */
  List<String> tables();

  /** The operations, prepared on {@code session} (which USEs {@link #keyspace()}). */
  List<StressOperation> operations(CqlSession session);

  /** The weight of each operation, in the order of {@link #operations}. */
  List<Double> weights();
}
