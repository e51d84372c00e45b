package io.cassette.coordinator.view;

import java.util.Map;

/**
 * The base tables that have materialized views, with how to compute their view updates. The
 * front door replaces the whole map whenever its schema changes ({@link #replace}); the write
 * path looks a table up on every write, so the lookup reads one volatile field and an
 * unmodifiable map. Thread-safe.
 */
public final class ViewRegistry {
  /** Base tables by "keyspace.table"; empty in the common case of no views at all. */
  private volatile Map<String, ViewUpdates> byBaseTable = Map.of();
  /** The view tables ("keyspace.table"), whose updates a view replica lifts above old deletions ({@link ViewRowRestamp}). */
  private volatile java.util.Set<String> viewTables = java.util.Set.of();

  /** The view updates of a base table, or null when it has no views. */
  public ViewUpdates of(String keyspace, String table) {
    Map<String, ViewUpdates> m = byBaseTable;
    return m.isEmpty() ? null : m.get(keyspace + "." + table);
  }

  /** True when no table has views (writes skip the view path). */
  public boolean isEmpty() {
    return byBaseTable.isEmpty();
  }

  /** True when {@code keyspace.table} is a materialized view. */
  public boolean isView(String keyspace, String table) {
    java.util.Set<String> v = viewTables;
    return !v.isEmpty() && v.contains(keyspace + "." + table);
  }

  /** Sets every base table's views at once (keys "keyspace.table") and the view tables. */
  public void replace(Map<String, ViewUpdates> viewsByBaseTable, java.util.Set<String> views) {
    viewTables = java.util.Set.copyOf(views);
    byBaseTable = Map.copyOf(viewsByBaseTable);
  }
}
