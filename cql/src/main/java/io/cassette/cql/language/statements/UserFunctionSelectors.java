package io.cassette.cql.language.statements;

import static io.cassette.cql.language.Errors.invalid;

import io.cassette.cql.CqlType;
import io.cassette.cql.language.functions.NativeFunctions;
import io.cassette.cql.language.functions.UserFunctions;
import io.cassette.cql.language.parser.Selector;
import io.cassette.cql.language.schema.KeyspaceMetadata;
import io.cassette.cql.language.schema.SchemaBuilder;
import io.cassette.cql.language.schema.TableMetadata;
import io.cassette.cql.language.schema.UserAggregate;
import io.cassette.cql.language.schema.UserFunction;
import io.cassette.cql.language.types.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Calls of user-defined functions and aggregates in a SELECT clause. A name with a keyspace
 * looks there; a bare name is a native function when one has it, else the queried table's
 * keyspace's (Cassandra's FunctionResolver). The overload is the one whose argument types equal
 * the arguments' (a bare literal or marker takes the candidate's type).
 */
final class UserFunctionSelectors {
  private UserFunctionSelectors() {}

  /** Names the selection handles itself before native functions. */
  private static final Set<String> SELECTION_BUILTINS = Set.of("count", "min", "max", "sum", "avg", "tojson",
      "token", "ttl", "writetime", "maxwritetime", "cast");

  /** A function that may be either kind: a scalar function or an aggregate. */
  private record Candidate(UserFunction function, UserAggregate aggregate) {
    List<CqlType> argumentTypes() {
      return function != null ? function.argumentTypes() : aggregate.argumentTypes();
    }

    String describe() {
      CqlType ret = function != null ? function.returnType() : aggregate.returnType();
      String ks = function != null ? function.keyspace() : aggregate.keyspace();
      String n = function != null ? function.name() : aggregate.name();
      return ks + "." + n + " : (" + String.join(", ", UserFunction.typeNames(argumentTypes())) + ") -> "
          + Types.toCql(ret);
    }
  }

  /**
   * The selector for {@code f} when it names a user function or aggregate, else null (a native
   * function). {@code args} are the compiled arguments (type null for a bare literal or marker).
   */
  static Selection.Sel select(Selector.Function f, String name, List<Selection.Sel> args, TableMetadata table,
                              TermCompiler terms) {
    String ks = f.keyspace();
    if (ks != null && ks.equals("system")) {
      return null;
    }
    if (ks == null && (NativeFunctions.exists(name) || SELECTION_BUILTINS.contains(name))) {
      return null;
    }
    String where = ks != null ? ks : table.keyspace;
    KeyspaceMetadata k = terms.schema() != null ? terms.schema().keyspace(where)
        : where.equals(table.keyspace) ? terms.keyspace() : null;
    List<Candidate> all = new ArrayList<>();
    if (k != null) {
      for (UserFunction u : k.functions(name)) {
        all.add(new Candidate(u, null));
      }
      for (UserAggregate a : k.aggregates(name)) {
        all.add(new Candidate(null, a));
      }
    }
    if (all.isEmpty()) {
      if (ks == null) {
        return null; // the native path reports the unknown function
      }
      throw invalid("Unknown function '" + ks + "." + name + "'");
    }
    String qualified = where + "." + name;
    List<Selection.Sel> typed = new ArrayList<>(args);
    List<Candidate> matches = new ArrayList<>();
    for (Candidate c : all) {
      if (c.argumentTypes().size() == args.size() && fits(c, f, args, table, terms)) {
        matches.add(c);
      }
    }
    if (matches.isEmpty()) {
      if (all.size() == 1) {
        Candidate c = all.get(0);
        if (c.argumentTypes().size() != args.size()) {
          throw invalid("Invalid number of arguments in call to function " + qualified + ": "
              + c.argumentTypes().size() + " required but " + args.size() + " provided");
        }
        for (int i = 0; i < args.size(); i++) {
          if (!fitsArg(c.argumentTypes().get(i), f.args().get(i), args.get(i), table, terms)) {
            throw invalid("Type error: " + args.get(i).name() + " cannot be passed as argument " + i
                + " of function " + qualified + " of type " + Types.toCql(c.argumentTypes().get(i)));
          }
        }
      }
      // Cassandra lists the signatures from a hash map; sorted here (it agreed on the anchor for int/bigint)
      List<String> sorted = new ArrayList<>();
      for (Candidate c : all) {
        sorted.add(c.describe());
      }
      java.util.Collections.sort(sorted);
      String sigs = String.join(", ", sorted);
      throw invalid("Invalid call to function " + name + ", none of its type signatures match (known type"
          + " signatures: " + sigs + ")");
    }
    if (matches.size() > 1) {
      // a bare numeric literal prefers int, then bigint, varint; double for a float (as Cassandra's)
      List<Candidate> preferred = new ArrayList<>();
      for (Candidate c : matches) {
        boolean ok = true;
        for (int i = 0; i < args.size(); i++) {
          if (args.get(i).type() == null && f.args().get(i) instanceof Selector.Value v) {
            CqlType p = Selection.preferredNumericType(v.term());
            ok &= p == null || p.equals(c.argumentTypes().get(i));
          }
        }
        if (ok) {
          preferred.add(c);
        }
      }
      if (preferred.size() == 1) {
        matches = preferred;
      }
    }
    if (matches.size() > 1) {
      StringBuilder sigs = new StringBuilder();
      for (Candidate c : matches) {
        sigs.append(sigs.length() == 0 ? "" : ", ").append(c.describe());
      }
      throw invalid("Ambiguous call to function " + qualified + " (can be matched by following signatures: "
          + sigs + "): use type casts to disambiguate");
    }
    Candidate c = matches.get(0);
    for (int i = 0; i < typed.size(); i++) {
      if (typed.get(i).type() == null) {
        Selector.Value v = (Selector.Value) f.args().get(i);
        Value compiled = terms.compile(v.term(), new Receiver(table.keyspace, table.name,
            name + "(arg" + i + ")", c.argumentTypes().get(i)));
        CqlType t = c.argumentTypes().get(i);
        String text = v.term().toString();
        typed.set(i, new Selection.Sel() {
          public CqlType type() {
            return t;
          }

          public String name() {
            return text;
          }

          public boolean isAggregate() {
            return false;
          }

          public byte[] value(io.cassette.cql.language.statements.RowView row, QueryContext ctx) {
            return compiled.get(ctx);
          }
        });
      }
    }
    StringBuilder display = new StringBuilder(qualified).append('(');
    for (int i = 0; i < typed.size(); i++) {
      display.append(i == 0 ? "" : ", ").append(typed.get(i).name());
    }
    String dn = display.append(')').toString();
    return c.function != null ? scalar(c.function, dn, typed) : aggregate(c.aggregate, k, dn, typed);
  }

  private static boolean fits(Candidate c, Selector.Function f, List<Selection.Sel> args, TableMetadata table,
                              TermCompiler terms) {
    for (int i = 0; i < args.size(); i++) {
      if (!fitsArg(c.argumentTypes().get(i), f.args().get(i), args.get(i), table, terms)) {
        return false;
      }
    }
    return true;
  }

  private static boolean fitsArg(CqlType want, Selector raw, Selection.Sel arg, TableMetadata table,
                                 TermCompiler terms) {
    if (arg.type() != null) {
      return Types.freeze(arg.type()).equals(Types.freeze(want));
    }
    try {
      // a bare literal fits when it compiles as the parameter's type (markers always do)
      new TermCompiler(new Bindings(), terms.keyspace()).compile(((Selector.Value) raw).term(),
          new Receiver(table.keyspace, table.name, "arg", want));
      return true;
    } catch (io.cassette.cql.CqlException e) {
      return false;
    }
  }

  private static long timeout(QueryContext ctx) {
    return ctx.services.userFunctions().get().failTimeoutMillis();
  }

  private static Selection.Sel scalar(UserFunction fn, String display, List<Selection.Sel> args) {
    boolean aggregateArgs = false;
    for (Selection.Sel a : args) {
      aggregateArgs |= a.isAggregate();
    }
    if (aggregateArgs) {
      throw invalid("Cassette does not apply a user-defined function to an aggregate's result yet: " + display);
    }
    return new Selection.Sel() {
      public CqlType type() {
        return fn.returnType();
      }

      public String name() {
        return display;
      }

      public boolean isAggregate() {
        return false;
      }

      public byte[] value(RowView row, QueryContext ctx) {
        List<byte[]> vs = new ArrayList<>(args.size());
        for (Selection.Sel a : args) {
          vs.add(a.value(row, ctx));
        }
        return UserFunctions.call(fn, vs, timeout(ctx));
      }
    };
  }

  private static Selection.Sel aggregate(UserAggregate a, KeyspaceMetadata k, String display,
                                         List<Selection.Sel> args) {
    for (Selection.Sel s : args) {
      if (s.isAggregate()) {
        throw invalid("aggregate functions cannot be used as arguments of aggregate functions");
      }
    }
    UserFunction state = SchemaBuilder.findFunction(k, a.stateFunction(), a.stateArgumentTypes());
    UserFunction last = a.finalFunction() == null ? null
        : SchemaBuilder.findFunction(k, a.finalFunction(), List.of(a.stateType()));
    if (state == null || (a.finalFunction() != null && last == null)) {
      throw invalid("Aggregate " + a.signature() + " refers to a function that no longer exists");
    }
    return new Selection.Sel() {
      public CqlType type() {
        return a.returnType();
      }

      public String name() {
        return display;
      }

      public boolean isAggregate() {
        return true;
      }

      public byte[] value(RowView row, QueryContext ctx) {
        throw new IllegalStateException("aggregate");
      }

      public Selection.Aggregator aggregator() {
        return new Selection.Aggregator() {
          UserFunctions.Aggregation agg;
          long timeout = UserFunctions.Settings.DEFAULTS.failTimeoutMillis();

          public void add(RowView row, QueryContext ctx) {
            if (agg == null) {
              timeout = timeout(ctx);
              agg = new UserFunctions.Aggregation(a, state, last, timeout);
            }
            List<byte[]> vs = new ArrayList<>(args.size());
            for (Selection.Sel s : args) {
              vs.add(s.value(row, ctx));
            }
            agg.add(vs);
          }

          public byte[] result() {
            if (agg == null) {
              agg = new UserFunctions.Aggregation(a, state, last, timeout);
            }
            return agg.result();
          }
        };
      }
    };
  }
}
