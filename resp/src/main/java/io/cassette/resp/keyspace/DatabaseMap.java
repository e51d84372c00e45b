package io.cassette.resp.keyspace;

import io.cassette.coordinator.Coordinator;
import io.cassette.coordinator.metadata.ClusterMetadata;
import io.cassette.coordinator.metadata.KeyspaceDefinition;
import io.cassette.coordinator.metadata.MetadataChange;
import io.cassette.coordinator.metadata.MetadataConflictException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which table holds each Redis database (SELECT index): SWAPDB exchanges two entries instead of
 * moving data. Durable and ring-wide because it lives in the metadata log, as the options of
 * the keyspace {@value #KEYSPACE}: no tables, {@code LocalStrategy} (nothing is placed by it),
 * and one option per database whose table is not its own,
 * <pre>
 *   {class: LocalStrategy, format: 1, "&lt;db&gt;": "&lt;table slot&gt;", ...}
 * </pre>
 * where slot s is the table {@code redis.db<s>} ({@link RedisLayout#tableName}). No keyspace
 * means every database is in its own table (the identity map). Its definition is null, so
 * CQL does not see it and refuses to create a keyspace of that name ("reserved").
 *
 * <p>A swap is committed against the snapshot it was computed from, so two nodes swapping at
 * once cannot lose one of the swaps: the second is computed again from the newer map. Every
 * node reads the map from its current snapshot when a command starts ({@link Keyspace}), so a
 * swap takes effect between two commands on the node that ran it, and on the others when they
 * apply that epoch.
 */
final class DatabaseMap {
  /** The metadata keyspace holding the map (reserved: never a CQL or Redis data keyspace). */
  static final String KEYSPACE = "redis_databases";
  /** Version of the options' layout; a newer one is refused, never guessed. */
  static final int FORMAT = 1;
  private static final String FORMAT_KEY = "format";

  private DatabaseMap() {}

  /** Slot (table) of each database in {@code metadata}: {@code slots[db]}. */
  static int[] of(ClusterMetadata metadata) {
    int[] slots = identity();
    KeyspaceDefinition ks = metadata.keyspace(KEYSPACE);
    if (ks == null) {
      return slots;
    }
    Map<String, String> o = ks.replication();
    int format = Integer.parseInt(o.getOrDefault(FORMAT_KEY, "1"));
    if (format > FORMAT) {
      throw new IllegalStateException("The Redis database map (keyspace " + KEYSPACE + ") has format "
          + format + "; this release reads format " + FORMAT + ". Use the newer release.");
    }
    for (int db = 0; db < slots.length; db++) {
      String s = o.get(Integer.toString(db));
      if (s != null) {
        slots[db] = Integer.parseInt(s);
      }
    }
    return slots;
  }

  static int[] identity() {
    int[] slots = new int[RedisLayout.DATABASES];
    for (int i = 0; i < slots.length; i++) {
      slots[i] = i;
    }
    return slots;
  }

  /**
   * Exchanges the tables of databases {@code a} and {@code b} in the metadata log; returns
   * once this node applied it. Retried when another node changed the metadata meanwhile.
   */
  static void swap(Coordinator coordinator, int a, int b) {
    synchronized (RedisTable.class) { // one metadata change of the Redis door at a time here
      for (int attempt = 1; ; attempt++) {
        ClusterMetadata current = coordinator.metadata().current();
        int[] slots = of(current);
        int t = slots[a];
        slots[a] = slots[b];
        slots[b] = t;
        try {
          coordinator.metadata().commit(MetadataChange.put(
              new KeyspaceDefinition(KEYSPACE, options(slots), List.of(), null)), current.epoch());
          return;
        } catch (MetadataConflictException e) {
          if (attempt >= RedisTable.CREATE_ATTEMPTS) {
            throw e;
          }
        }
      }
    }
  }

  private static Map<String, String> options(int[] slots) {
    Map<String, String> o = new LinkedHashMap<>();
    o.put("class", "LocalStrategy");
    o.put(FORMAT_KEY, Integer.toString(FORMAT));
    for (int db = 0; db < slots.length; db++) {
      if (slots[db] != db) {
        o.put(Integer.toString(db), Integer.toString(slots[db]));
      }
    }
    return o;
  }
}
