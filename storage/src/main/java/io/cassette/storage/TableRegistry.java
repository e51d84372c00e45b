package io.cassette.storage;

import io.cassette.storage.commitlog.CommitLogPosition;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The engine's tables, by id and by name, with the commit-log position of each one's last
 * truncation, and the {@link Catalog} file that persists them. Lookups are lock-free; every
 * change holds {@link #lock} and rewrites the catalog, undoing the change in memory if that
 * fails. Thread-safe.
 */
final class TableRegistry {
  private final Path dataDirectory;
  private final ConcurrentHashMap<UUID, LocalTable> byId = new ConcurrentHashMap<>();
  /**
   * By keyspace, then name: a lookup builds no key string (every write and read looks its
   * table up by name; the concatenated key was a string and its array per request).
   */
  private final ConcurrentHashMap<String, ConcurrentHashMap<String, LocalTable>> byName = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<UUID, CommitLogPosition> truncatedAt = new ConcurrentHashMap<>();
  /** Held while the set of tables or a truncation position changes and the catalog is rewritten. */
  final Object lock = new Object();

  TableRegistry(Path dataDirectory) {
    this.dataDirectory = dataDirectory;
  }

  /** The tables the catalog file lists (none when there is no file yet). */
  List<Catalog.Entry> persisted() {
    return Catalog.load(dataDirectory);
  }

  /** Adds a table read from the catalog at open (the catalog is not rewritten). */
  void loaded(LocalTable t, CommitLogPosition truncated) {
    register(t);
    truncatedAt.put(t.spec().id(), truncated);
  }

  LocalTable get(UUID id) {
    return byId.get(id);
  }

  LocalTable get(String keyspace, String name) {
    return named(keyspace, name);
  }

  /** A live view of all tables (iteration sees tables added or dropped meanwhile, or not). */
  Collection<LocalTable> all() {
    return byId.values();
  }

  /** Where the table was last truncated (or created); NONE if unknown. */
  CommitLogPosition truncatedAt(UUID id) {
    return truncatedAt.getOrDefault(id, CommitLogPosition.NONE);
  }

  /**
   * Creates the table, or returns the one with the spec's id: {@code newTable} makes it, and
   * it is loaded from its directory as of {@code position} (records written before the table
   * existed, a dropped table with the same id, must never be replayed into it). Throws when
   * another table has the name.
   */
  LocalTable create(TableSpec spec, Function<TableSpec, LocalTable> newTable,
                    Supplier<CommitLogPosition> position) {
    synchronized (lock) {
      LocalTable existing = byId.get(spec.id());
      if (existing != null) {
        return existing;
      }
      LocalTable sameName = named(spec.keyspace(), spec.name());
      if (sameName != null) {
        throw new StorageException("table " + spec.keyspace() + "." + spec.name() + " already exists with id "
            + sameName.spec().id() + " (requested: " + spec.id() + ")");
      }
      LocalTable t = newTable.apply(spec);
      CommitLogPosition createdAt = position.get();
      t.load(createdAt);
      register(t);
      truncatedAt.put(spec.id(), createdAt);
      try {
        save();
      } catch (RuntimeException e) {
        byId.remove(spec.id());
        unname(spec.keyspace(), spec.name());
        truncatedAt.remove(spec.id());
        throw e;
      }
      return t;
    }
  }

  /**
   * Gives the table with the spec's id and name the new spec; {@code altered} runs after the
   * catalog was rewritten, still under the lock.
   */
  LocalTable alter(TableSpec spec, Consumer<LocalTable> altered) {
    synchronized (lock) {
      LocalTable t = byId.get(spec.id());
      if (t == null || !t.spec().keyspace().equals(spec.keyspace()) || !t.spec().name().equals(spec.name())) {
        throw new StorageException("no table " + spec.keyspace() + "." + spec.name() + " with id " + spec.id());
      }
      TableSpec old = t.spec();
      t.setSpec(spec);
      try {
        save();
      } catch (RuntimeException e) {
        t.setSpec(old);
        throw e;
      }
      altered.accept(t);
      return t;
    }
  }

  /** Removes the table and marks it dropped; its data is the caller's to release. */
  LocalTable drop(String keyspace, String name) {
    synchronized (lock) {
      LocalTable t = named(keyspace, name);
      if (t == null) {
        throw new StorageException("no table " + keyspace + "." + name);
      }
      unname(keyspace, name);
      byId.remove(t.spec().id());
      truncatedAt.remove(t.spec().id());
      t.dropped = true;
      save();
      return t;
    }
  }

  /** Records a truncation and rewrites the catalog. Requires: {@link #lock} held. */
  void truncated(UUID id, CommitLogPosition position) {
    truncatedAt.put(id, position);
    save();
  }

  private void register(LocalTable t) {
    byId.put(t.spec().id(), t);
    byName.computeIfAbsent(t.spec().keyspace(), k -> new ConcurrentHashMap<>()).put(t.spec().name(), t);
  }

  private LocalTable named(String keyspace, String name) {
    ConcurrentHashMap<String, LocalTable> inKeyspace = byName.get(keyspace);
    return inKeyspace == null ? null : inKeyspace.get(name);
  }

  /** Requires: lock held (an empty keyspace map stays: keyspaces are few). */
  private void unname(String keyspace, String name) {
    ConcurrentHashMap<String, LocalTable> inKeyspace = byName.get(keyspace);
    if (inKeyspace != null) {
      inKeyspace.remove(name);
    }
  }

  /** Requires: {@link #lock} held. */
  private void save() {
    List<Catalog.Entry> entries = new ArrayList<>();
    for (LocalTable t : byId.values()) {
      entries.add(new Catalog.Entry(t.spec(), truncatedAt.getOrDefault(t.spec().id(), CommitLogPosition.NONE)));
    }
    entries.sort(Comparator.comparing((Catalog.Entry e) -> e.spec().keyspace()).thenComparing(e -> e.spec().name()));
    Catalog.save(dataDirectory, entries);
  }
}
