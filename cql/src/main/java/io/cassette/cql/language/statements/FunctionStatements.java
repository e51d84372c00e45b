package io.cassette.cql.language.statements;

import static io.cassette.cql.language.Errors.invalid;

import io.cassette.cql.ColumnSpec;
import io.cassette.cql.CqlType;
import io.cassette.cql.Result;
import io.cassette.cql.language.functions.UserFunctions;
import io.cassette.cql.language.parser.RawType;
import io.cassette.cql.language.parser.Statement;
import io.cassette.cql.language.schema.KeyspaceMetadata;
import io.cassette.cql.language.schema.SchemaBuilder;
import io.cassette.cql.language.schema.SchemaManager;
import io.cassette.cql.language.schema.TypeResolver;
import io.cassette.cql.language.schema.UserAggregate;
import io.cassette.cql.language.schema.UserFunction;
import io.cassette.cql.language.types.Types;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

/**
 * CREATE [OR REPLACE] FUNCTION / AGGREGATE and DROP FUNCTION / AGGREGATE, with Cassandra 5.0's
 * checks in its order and its texts (CreateFunctionStatement, CreateAggregateStatement,
 * DropFunctionStatement, DropAggregateStatement). Functions and aggregates are kept in their
 * keyspace's schema (so in the metadata log: every node of a ring has them, and they survive a
 * restart); a function's body is compiled when it is created, and again lazily on a node that
 * loads it from the log.
 */
final class FunctionStatements {
  private FunctionStatements() {}

  private record Ddl(java.util.function.Function<QueryContext, Result> body) implements Executable {
    public Result execute(QueryContext ctx) {
      return body.apply(ctx);
    }

    public List<ColumnSpec> variables() {
      return List.of();
    }
  }

  static Executable compile(Statement s, String keyspace, Services services) {
    SchemaManager sm = services.schema();
    if (s instanceof Statement.CreateFunction cf) {
      if (!services.userFunctions().get().enabled()) {
        throw invalid(OffByDefaultFeatures.UDF_DISABLED);
      }
      String ks = SchemaStatements.keyspace(cf.name(), keyspace);
      return new Ddl(ctx -> createFunction(sm, cf, ks));
    }
    if (s instanceof Statement.CreateAggregate ca) {
      String ks = SchemaStatements.keyspace(ca.name(), keyspace);
      return new Ddl(ctx -> createAggregate(sm, ca, ks));
    }
    Statement.DropFunction df = (Statement.DropFunction) s;
    String ks = SchemaStatements.keyspace(df.name(), keyspace);
    return new Ddl(ctx -> drop(sm, df, ks));
  }

  private static void bothDirectives(boolean orReplace, boolean ifNotExists) {
    if (orReplace && ifNotExists) {
      throw invalid("Cannot use both 'OR REPLACE' and 'IF NOT EXISTS' directives");
    }
  }

  private static void notFrozen(List<RawType> types, String what) {
    for (RawType t : types) {
      if (t.name().equals("frozen")) {
        throw invalid(what + " '" + t + "' cannot be frozen; remove frozen<> modifier from '" + t + "'");
      }
    }
  }

  private static Result createFunction(SchemaManager sm, Statement.CreateFunction cf, String ks) {
    bothDirectives(cf.orReplace(), cf.ifNotExists());
    SchemaStatements.checkModifiable(ks);
    String name = cf.name().name();
    boolean[] replaced = {false};
    boolean[] applied = {false};
    sm.change(m -> {
      replaced[0] = false;
      applied[0] = false;
      KeyspaceMetadata k = m.get(ks);
      if (k == null) {
        throw invalid("Keyspace '" + ks + "' doesn't exist");
      }
      if (new HashSet<>(cf.argNames()).size() != cf.argNames().size()) {
        throw invalid("Duplicate argument names for given function " + name + " with argument names "
            + cf.argNames());
      }
      notFrozen(cf.argTypes(), "Argument");
      if (cf.returnType().name().equals("frozen")) {
        throw invalid("Return type '" + cf.returnType() + "' cannot be frozen; remove frozen<> modifier from '"
            + cf.returnType() + "'");
      }
      UserFunction f = SchemaBuilder.function(cf, k);
      UserFunctions.compile(f);
      if (!k.aggregates(name).isEmpty() && findAggregate(k, name, f.argumentTypes()) != null) {
        throw invalid("Function '" + name + "' cannot replace an aggregate");
      }
      UserFunction existing = SchemaBuilder.findFunction(k, name, f.argumentTypes());
      if (existing != null) {
        if (cf.ifNotExists()) {
          return null;
        }
        if (!cf.orReplace()) {
          throw invalid("Function '" + name + "' already exists");
        }
        if (existing.calledOnNullInput() != f.calledOnNullInput()) {
          throw invalid("Function '" + name + "' must have " + (f.calledOnNullInput() ? "CALLED ON NULL INPUT"
              : "RETURNS NULL ON NULL INPUT") + " directive");
        }
        if (!existing.returnType().equals(f.returnType())) {
          throw invalid("Cannot replace function '" + name + "', the new return type " + Types.toCql(f.returnType())
              + " is not compatible with the return type " + Types.toCql(existing.returnType())
              + " of existing function");
        }
        replaced[0] = true;
      }
      m.put(ks, k.withFunction(f));
      applied[0] = true;
      return m;
    }, null);
    return announce(sm, replaced[0] ? "UPDATED" : "CREATED", "FUNCTION", ks, name, functionTypes(sm, ks, cf), applied);
  }

  private static List<String> functionTypes(SchemaManager sm, String ks, Statement.CreateFunction cf) {
    List<String> out = new ArrayList<>();
    KeyspaceMetadata k = sm.current().keyspace(ks);
    for (RawType t : cf.argTypes()) {
      out.add(Types.toCql(TypeResolver.resolve(t, k)));
    }
    return out;
  }

  /** Sends the schema event of an applied change (none when IF [NOT] EXISTS made it a no-op). */
  private static Result announce(SchemaManager sm, String change, String target, String ks, String name,
                                 List<String> types, boolean[] applied) {
    if (!applied[0]) {
      return Result.Void.INSTANCE;
    }
    Result.SchemaChange e = new Result.SchemaChange(change, target, ks, name, types);
    sm.announce(e);
    return e;
  }

  static UserAggregate findAggregate(KeyspaceMetadata k, String name, List<CqlType> args) {
    for (UserAggregate a : k.aggregates(name)) {
      if (a.argumentTypes().equals(args)) {
        return a;
      }
    }
    return null;
  }

  private static Result createAggregate(SchemaManager sm, Statement.CreateAggregate ca, String ks) {
    bothDirectives(ca.orReplace(), ca.ifNotExists());
    SchemaStatements.checkModifiable(ks);
    String name = ca.name().name();
    boolean[] replaced = {false};
    boolean[] applied = {false};
    sm.change(m -> {
      replaced[0] = false;
      applied[0] = false;
      notFrozen(ca.argTypes(), "Argument");
      if (ca.stateType().name().equals("frozen")) {
        throw invalid("State type '" + ca.stateType() + "' cannot be frozen; remove frozen<> modifier from '"
            + ca.stateType() + "'");
      }
      KeyspaceMetadata k = m.get(ks);
      if (k == null) {
        throw invalid("Keyspace '" + ks + "' doesn't exist");
      }
      List<CqlType> args = new ArrayList<>();
      for (RawType t : ca.argTypes()) {
        args.add(TypeResolver.resolve(t, k));
      }
      CqlType stype = TypeResolver.resolve(ca.stateType(), k);
      List<CqlType> stateArgs = new ArrayList<>();
      stateArgs.add(stype);
      stateArgs.addAll(args);
      List<String> rawSig = new ArrayList<>();
      rawSig.add(ca.stateType().toString());
      for (RawType t : ca.argTypes()) {
        rawSig.add(t.toString());
      }
      String sfString = ks + "." + ca.stateFunction() + "(" + String.join(", ", rawSig) + ")";
      UserFunction sf = SchemaBuilder.findFunction(k, ca.stateFunction(), stateArgs);
      if (sf == null) {
        if (findAggregate(k, ca.stateFunction(), stateArgs) != null) {
          throw invalid("State function " + sfString + " isn't a scalar function");
        }
        throw invalid("State function " + sfString + " doesn't exist");
      }
      if (!sf.returnType().equals(stype)) {
        throw invalid("State function " + sfString
            + " return type must be the same as the first argument type - check STYPE, argument and return types");
      }
      if (ca.finalFunction() != null) {
        String ffString = ks + "." + ca.finalFunction() + "(" + ca.stateType() + ")";
        if (SchemaBuilder.findFunction(k, ca.finalFunction(), List.of(stype)) == null) {
          if (findAggregate(k, ca.finalFunction(), List.of(stype)) != null) {
            throw invalid("Final function " + ffString + " isn't a scalar function");
          }
          throw invalid("Final function " + ffString + " doesn't exist");
        }
      }
      UserAggregate a = SchemaBuilder.aggregate(ca, k);
      if (ca.initcond() != null && !(ca.initcond() instanceof io.cassette.cql.language.parser.Term.Null)
          && a.initcond() != null && a.initcond().length == 0 && !emptyAllowed(stype)) {
        throw invalid("INITCOND must not be empty for all types except TEXT, ASCII, BLOB");
      }
      if (!sf.calledOnNullInput() && a.initcond() == null) {
        throw invalid("Cannot create aggregate '" + name + "' without INITCOND because state function "
            + ks + "." + ca.stateFunction() + " does not accept 'null' arguments");
      }
      if (SchemaBuilder.findFunction(k, name, args) != null) {
        throw invalid("Aggregate '" + name + "' cannot replace a function");
      }
      UserAggregate existing = findAggregate(k, name, args);
      if (existing != null) {
        if (ca.ifNotExists()) {
          return null;
        }
        if (!ca.orReplace()) {
          throw invalid("Aggregate '" + name + "' already exists");
        }
        if (!existing.returnType().equals(a.returnType())) {
          throw invalid("Cannot replace aggregate '" + name + "', the new return type " + Types.toCql(a.returnType())
              + " isn't compatible with the return type " + Types.toCql(existing.returnType())
              + " of existing function");
        }
        replaced[0] = true;
      }
      m.put(ks, k.withAggregate(a));
      applied[0] = true;
      return m;
    }, null);
    KeyspaceMetadata k = sm.current().keyspace(ks);
    List<String> types = new ArrayList<>();
    if (k != null) {
      for (RawType t : ca.argTypes()) {
        types.add(Types.toCql(TypeResolver.resolve(t, k)));
      }
    }
    return announce(sm, replaced[0] ? "UPDATED" : "CREATED", "AGGREGATE", ks, name, types, applied);
  }

  private static boolean emptyAllowed(CqlType t) {
    return Types.isNative(t, CqlType.Native.TEXT) || Types.isNative(t, CqlType.Native.ASCII)
        || Types.isNative(t, CqlType.Native.BLOB);
  }

  private static Result drop(SchemaManager sm, Statement.DropFunction df, String ks) {
    String kind = df.aggregate() ? "Aggregate" : "Function";
    String fn = df.name().name();
    List<String> rawTypes = new ArrayList<>();
    if (df.argTypes() != null) {
      for (RawType t : df.argTypes()) {
        rawTypes.add(t.toString());
      }
    }
    String shown = df.argTypes() != null ? ks + "." + fn + "(" + String.join(", ", rawTypes) + ")" : ks + "." + fn;
    List<String> dropped = new ArrayList<>();
    boolean[] applied = {false};
    sm.change(m -> {
      applied[0] = false;
      dropped.clear();
      KeyspaceMetadata k = m.get(ks);
      if (k == null) {
        if (df.ifExists()) {
          return null;
        }
        throw invalid(kind + " '" + shown + "' doesn't exist");
      }
      int overloads = k.functions(fn).size() + k.aggregates(fn).size();
      if (overloads > 1 && df.argTypes() == null) {
        String stmt = df.aggregate() ? "DROP AGGREGATE" : "DROP FUNCTION";
        throw invalid("'" + stmt + " " + fn + "' matches multiple function definitions; specify the argument types"
            + " by issuing a statement like '" + stmt + " " + fn + " (type, type, ...)'. You can use cqlsh "
            + "'DESCRIBE " + (df.aggregate() ? "AGGREGATE" : "FUNCTION") + " " + fn
            + "' command to find all overloads");
      }
      List<CqlType> args = null;
      if (df.argTypes() != null) {
        notFrozen(df.argTypes(), "Argument");
        args = new ArrayList<>();
        for (RawType t : df.argTypes()) {
          args.add(TypeResolver.resolve(t, k));
        }
      }
      if (df.aggregate()) {
        UserAggregate a = null;
        for (UserAggregate o : k.aggregates(fn)) {
          if (args == null || o.argumentTypes().equals(args)) {
            a = o;
          }
        }
        if (a == null) {
          if (df.ifExists()) {
            return null;
          }
          throw invalid(kind + " '" + shown + "' doesn't exist");
        }
        dropped.addAll(a.argumentTypeNames());
        m.put(ks, k.withoutAggregate(a));
        applied[0] = true;
        return m;
      }
      UserFunction f = null;
      for (UserFunction o : k.functions(fn)) {
        if (args == null || o.argumentTypes().equals(args)) {
          f = o;
        }
      }
      if (f == null) {
        if (df.ifExists()) {
          return null;
        }
        throw invalid(kind + " '" + shown + "' doesn't exist");
      }
      List<String> users = new ArrayList<>();
      for (UserAggregate a : k.aggregates()) {
        boolean state = a.stateFunction().equals(f.name()) && a.stateArgumentTypes().equals(f.argumentTypes());
        boolean last = a.finalFunction() != null && a.finalFunction().equals(f.name())
            && f.argumentTypes().equals(List.of(a.stateType()));
        if (state || last) {
          users.add(a.keyspace() + "." + a.name());
        }
      }
      if (!users.isEmpty()) {
        throw invalid("Function '" + shown + "' is still referenced by aggregates " + String.join(", ", users));
      }
      List<String> masking = new ArrayList<>();
      for (io.cassette.cql.language.schema.TableMetadata t : k.tables().values()) {
        for (io.cassette.cql.language.schema.ColumnMask mask : t.masks.values()) {
          UserFunction u = mask.udf();
          if (u != null && u.name().equals(f.name()) && u.argumentTypes().equals(f.argumentTypes())) {
            masking.add(t.name);
            break;
          }
        }
      }
      if (!masking.isEmpty()) {
        throw invalid("Function '" + shown + "' is still referenced by column masks in tables "
            + String.join(", ", masking));
      }
      dropped.addAll(f.argumentTypeNames());
      m.put(ks, k.withoutFunction(f));
      applied[0] = true;
      return m;
    }, null);
    return announce(sm, "DROPPED", df.aggregate() ? "AGGREGATE" : "FUNCTION", ks, fn, dropped, applied);
  }
}
