package io.cassette.cql.language.statements;

import io.cassette.cql.ColumnSpec;
import io.cassette.cql.language.Errors;
import java.util.ArrayList;
import java.util.List;

/** The bind markers of a statement, by index, with the receiver each one was bound to. */
public final class Bindings {
  private final List<ColumnSpec> specs = new ArrayList<>();
  private final List<String> names = new ArrayList<>();

  public void register(int index, String name, ColumnSpec spec) {
    while (specs.size() <= index) {
      specs.add(null);
      names.add(null);
    }
    specs.set(index, spec);
    names.set(index, name);
  }

  /** Specs in marker order; a marker with a name reports that name (":name"). */
  public List<ColumnSpec> specs() {
    List<ColumnSpec> out = new ArrayList<>(specs.size());
    for (int i = 0; i < specs.size(); i++) {
      ColumnSpec s = specs.get(i);
      if (s == null) {
        throw Errors.invalid("Bind marker " + i + " is not used in a position with a known type");
      }
      String n = names.get(i);
      out.add(n == null ? s : new ColumnSpec(s.keyspace(), s.table(), n, s.type()));
    }
    return out;
  }

  public int size() {
    return specs.size();
  }

  /** Marker index per name, for requests that send named values. */
  public List<String> names() {
    return names;
  }
}
