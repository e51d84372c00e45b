package io.cassette.cql.language.schema;

import io.cassette.cql.CqlType.UdtType;
import java.util.Collections;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * An immutable keyspace: replication, durable writes, tables and user types by name, user
 * functions and aggregates in creation order (overloads share a name).
 */
public record KeyspaceMetadata(String name, Map<String, String> replication, boolean durableWrites,
                               Map<String, TableMetadata> tables, Map<String, UdtType> types,
                               boolean virtual, List<UserFunction> functions, List<UserAggregate> aggregates) {
  public KeyspaceMetadata {
    replication = Collections.unmodifiableMap(new TreeMap<>(replication));
    tables = Collections.unmodifiableMap(new TreeMap<>(tables));
    types = Collections.unmodifiableMap(new LinkedHashMap<>(types));
    functions = List.copyOf(functions);
    aggregates = List.copyOf(aggregates);
  }

  public KeyspaceMetadata(String name, Map<String, String> replication, boolean durableWrites,
                          Map<String, TableMetadata> tables, Map<String, UdtType> types, boolean virtual) {
    this(name, replication, durableWrites, tables, types, virtual, List.of(), List.of());
  }

  /**
   * This keyspace with {@code f} instead of the overload with the same argument types, at the end
   * (Cassandra's withAddedOrUpdated: overloads are listed in that order in its messages).
   */
  public KeyspaceMetadata withFunction(UserFunction f) {
    List<UserFunction> fs = new ArrayList<>();
    for (UserFunction o : functions) {
      if (!(o.name().equals(f.name()) && o.argumentTypes().equals(f.argumentTypes()))) {
        fs.add(o);
      }
    }
    fs.add(f);
    return new KeyspaceMetadata(name, replication, durableWrites, tables, types, virtual, fs, aggregates);
  }

  public KeyspaceMetadata withoutFunction(UserFunction f) {
    List<UserFunction> fs = new ArrayList<>(functions);
    fs.remove(f);
    return new KeyspaceMetadata(name, replication, durableWrites, tables, types, virtual, fs, aggregates);
  }

  public KeyspaceMetadata withAggregate(UserAggregate a) {
    List<UserAggregate> as = new ArrayList<>();
    for (UserAggregate o : aggregates) {
      if (!(o.name().equals(a.name()) && o.argumentTypes().equals(a.argumentTypes()))) {
        as.add(o);
      }
    }
    as.add(a);
    return new KeyspaceMetadata(name, replication, durableWrites, tables, types, virtual, functions, as);
  }

  public KeyspaceMetadata withoutAggregate(UserAggregate a) {
    List<UserAggregate> as = new ArrayList<>(aggregates);
    as.remove(a);
    return new KeyspaceMetadata(name, replication, durableWrites, tables, types, virtual, functions, as);
  }

  /** The overloads named {@code fn}. */
  public List<UserFunction> functions(String fn) {
    List<UserFunction> out = new ArrayList<>();
    for (UserFunction f : functions) {
      if (f.name().equals(fn)) {
        out.add(f);
      }
    }
    return out;
  }

  public List<UserAggregate> aggregates(String fn) {
    List<UserAggregate> out = new ArrayList<>();
    for (UserAggregate a : aggregates) {
      if (a.name().equals(fn)) {
        out.add(a);
      }
    }
    return out;
  }

  public KeyspaceMetadata withTable(TableMetadata t) {
    Map<String, TableMetadata> m = new TreeMap<>(tables);
    m.put(t.name, t);
    return new KeyspaceMetadata(name, replication, durableWrites, m, types, virtual, functions, aggregates);
  }

  public KeyspaceMetadata withoutTable(String table) {
    Map<String, TableMetadata> m = new TreeMap<>(tables);
    m.remove(table);
    return new KeyspaceMetadata(name, replication, durableWrites, m, types, virtual, functions, aggregates);
  }

  public KeyspaceMetadata withType(UdtType t) {
    Map<String, UdtType> m = new LinkedHashMap<>(types);
    m.put(t.name(), t);
    return new KeyspaceMetadata(name, replication, durableWrites, tables, m, virtual, functions, aggregates);
  }

  public KeyspaceMetadata withoutType(String type) {
    Map<String, UdtType> m = new LinkedHashMap<>(types);
    m.remove(type);
    return new KeyspaceMetadata(name, replication, durableWrites, tables, m, virtual, functions, aggregates);
  }

  public KeyspaceMetadata withOptions(Map<String, String> newReplication, boolean newDurable) {
    return new KeyspaceMetadata(name, newReplication, newDurable, tables, types, virtual, functions, aggregates);
  }
}
