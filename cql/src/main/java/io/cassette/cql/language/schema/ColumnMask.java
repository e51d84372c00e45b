package io.cassette.cql.language.schema;

import io.cassette.cql.CqlType;
import io.cassette.cql.language.functions.MaskFunctions;
import io.cassette.cql.language.functions.NativeFunction;
import io.cassette.cql.language.statements.QueryContext;
import java.util.ArrayList;
import java.util.List;

/**
 * The mask of one column (Cassandra 5.0's dynamic data masking, {@code MASKED WITH f(args)}):
 * a masking function of the {@code system} keyspace, or a user-defined function of the table's
 * keyspace ({@code udf}, null for a native one), and the arguments that follow the column's
 * value, serialized in {@code argumentTypes} (null for a null argument). A SELECT by a role
 * without UNMASK on the table sees {@code f(column, args...)} instead of the column.
 */
public record ColumnMask(String function, List<CqlType> argumentTypes, List<byte[]> arguments, UserFunction udf) {
  public ColumnMask {
    argumentTypes = List.copyOf(argumentTypes);
    arguments = java.util.Collections.unmodifiableList(new ArrayList<>(arguments));
  }

  /** A native masking function's mask. */
  public ColumnMask(String function, List<CqlType> argumentTypes, List<byte[]> arguments) {
    this(function, argumentTypes, arguments, null);
  }

  /** The keyspace of the masking function, as system_schema.column_masks shows it. */
  public String functionKeyspace() {
    return udf == null ? "system" : udf.keyspace();
  }

  /** Native aggregates and JSON functions, resolved apart from the scalar native functions. */
  private static final java.util.Set<String> AGGREGATES = java.util.Set.of("count", "min", "max", "sum", "avg");
  private static final java.util.Set<String> JSON_FUNCTIONS = java.util.Set.of("tojson", "fromjson");

  /**
   * Checks the padding argument of mask_inner/mask_outer, which Cassandra 5.0.4 checks when a
   * SELECT of the table runs (whoever reads, masked or not), not when the mask is declared.
   */
  public void checkArguments() {
    if ((function.equals("mask_inner") || function.equals("mask_outer")) && arguments.size() == 3
        && arguments.get(2) != null) {
      String p = new String(arguments.get(2), java.nio.charset.StandardCharsets.UTF_8);
      int n = p.codePointCount(0, p.length());
      if (n != 1) {
        throw io.cassette.cql.language.Errors.invalid("The padding argument for function system." + function
            + " should be single-character, but '" + p + "' has " + n + " characters.");
      }
    }
  }

  /** The function applied to a value of {@code columnType}. */
  public NativeFunction resolve(CqlType columnType) {
    if (udf != null) {
      UserFunction f = udf;
      return new NativeFunction(f.name(), f.argumentTypes(), f.returnType(), (args, ctx) ->
          io.cassette.cql.language.functions.UserFunctions.call(f, args,
              ctx.services.userFunctions().get().failTimeoutMillis()));
    }
    List<CqlType> types = new ArrayList<>();
    types.add(columnType);
    types.addAll(argumentTypes);
    return MaskFunctions.resolve(function, types, null);
  }

  /** {@code value} (serialized, null for null) masked. */
  public byte[] apply(NativeFunction resolved, byte[] value, QueryContext ctx) {
    List<byte[]> args = new ArrayList<>(arguments.size() + 1);
    args.add(value);
    args.addAll(arguments);
    return resolved.apply(args, ctx);
  }

  /**
   * The mask a MASKED WITH clause declares on {@code column} of {@code type}, checked as Cassandra
   * 5.0's ColumnMask.Raw.prepare (texts included): a native masking function or a user-defined
   * function of the table's keyspace (named with or without the keyspace) whose first argument
   * takes the column's value, returning the column's type.
   */
  public static ColumnMask compile(io.cassette.cql.language.parser.Statement.ColumnMaskDef def, String table,
                                   String column, CqlType type, KeyspaceMetadata ks) {
    String fn = def.function().name();
    List<String> argTexts = new ArrayList<>();
    for (io.cassette.cql.language.parser.Term t : def.arguments()) {
      argTexts.add(String.valueOf(t));
    }
    String raw = (def.function().keyspace() == null ? "" : def.function().keyspace() + ".") + fn
        + "(" + String.join(", ", argTexts) + ")";
    boolean system = def.function().keyspace() == null || def.function().keyspace().equals("system");
    String lower = fn.toLowerCase(java.util.Locale.ROOT);
    if (system && AGGREGATES.contains(lower)) {
      throw io.cassette.cql.language.Errors.invalid("Aggregate function " + raw
          + " cannot be used for masking table columns");
    }
    if (!system || !MaskFunctions.isMask(fn)) {
      boolean qualified = def.function().keyspace() != null;
      if (system && (io.cassette.cql.language.functions.NativeFunctions.exists(fn) || JSON_FUNCTIONS.contains(lower))) {
        throw io.cassette.cql.language.Errors.invalid("Not-masking function " + raw
            + " cannot be used for masking table columns");
      }
      if (qualified && !def.function().keyspace().equals(ks.name()) && !def.function().keyspace().equals("system")) {
        throw io.cassette.cql.language.Errors.invalid("Masking function " + raw
            + " doesn't belong to the same keyspace as the table " + ks.name() + "." + table);
      }
      List<UserFunction> candidates = !qualified || def.function().keyspace().equals(ks.name())
          ? ks.functions(fn) : List.of();
      if (candidates.size() == 1) {
        return userFunctionMask(candidates.get(0), def, argTexts, raw, table, column, type, ks);
      }
      for (UserFunction u : candidates) {
        if (u.argumentTypes().size() == def.arguments().size() + 1
            && io.cassette.cql.language.types.Types.toCql(u.argumentTypes().get(0))
                .equals(io.cassette.cql.language.types.Types.toCql(type))) {
          return userFunctionMask(u, def, argTexts, raw, table, column, type, ks);
        }
      }
      throw io.cassette.cql.language.Errors.invalid("Unable to find masking function for " + column
          + ", no declared function matches the signature " + raw);
    }
    List<CqlType> types = new ArrayList<>();
    types.add(type);
    for (int i = 0; i < def.arguments().size(); i++) {
      types.add(null);
    }
    // the column's type stands for the first argument; errors name it by its marshal class, as Cassandra's
    List<String> texts = new ArrayList<>();
    texts.add(io.cassette.cql.transport.messages.TypeEncoder.marshalClass(type));
    texts.addAll(argTexts);
    NativeFunction f = MaskFunctions.resolve(fn, types, texts);
    if (!io.cassette.cql.language.types.Types.toCql(f.returnType()).equals(io.cassette.cql.language.types.Types.toCql(type))) {
      throw io.cassette.cql.language.Errors.invalid("Masking function " + raw + " return type is "
          + io.cassette.cql.language.types.Types.toCql(f.returnType()) + ". This is different to the type of the masked column "
          + column + " of type " + io.cassette.cql.language.types.Types.toCql(type) + ". Masking functions can only be"
          + " attached to table columns if they return the same data type as the masked column.");
    }
    List<CqlType> argTypes = f.argTypes().subList(1, f.argTypes().size());
    List<byte[]> values = new ArrayList<>();
    for (int i = 0; i < argTypes.size(); i++) {
      values.add(new io.cassette.cql.language.statements.TermCompiler(new io.cassette.cql.language.statements.Bindings(), ks)
          .compile(def.arguments().get(i), new io.cassette.cql.language.statements.Receiver(ks.name(), table,
              "arg" + i, argTypes.get(i))).get(null));
    }
    return new ColumnMask(fn.toLowerCase(java.util.Locale.ROOT), argTypes, values);
  }

  /**
   * The mask calling {@code u}, checked as Cassandra's FunctionResolver checks a call of its one
   * overload (arity, the column's type as argument 0, each literal) and then as a mask.
   */
  private static ColumnMask userFunctionMask(UserFunction u, io.cassette.cql.language.parser.Statement.ColumnMaskDef def,
                                            List<String> argTexts, String raw, String table, String column,
                                            CqlType type, KeyspaceMetadata ks) {
    String name = u.keyspace() + "." + u.name();
    if (u.argumentTypes().size() != def.arguments().size() + 1) {
      throw io.cassette.cql.language.Errors.invalid("Invalid number of arguments in call to function " + name + ": "
          + u.argumentTypes().size() + " required but " + (def.arguments().size() + 1) + " provided");
    }
    String first = io.cassette.cql.language.types.Types.toCql(u.argumentTypes().get(0));
    if (!first.equals(io.cassette.cql.language.types.Types.toCql(type))) {
      throw io.cassette.cql.language.Errors.invalid("Type error: "
          + io.cassette.cql.transport.messages.TypeEncoder.marshalClass(type) + " cannot be passed as argument 0 of"
          + " function " + name + " of type " + first);
    }
    String returned = io.cassette.cql.language.types.Types.toCql(u.returnType());
    String expected = io.cassette.cql.language.types.Types.toCql(type);
    if (!returned.equals(expected)) {
      throw io.cassette.cql.language.Errors.invalid("Masking function " + raw + " return type is " + returned
          + ". This is different to the type of the masked column " + column + " of type " + expected
          + ". Masking functions can only be attached to table columns if they return the same data type as the"
          + " masked column.");
    }
    List<CqlType> argTypes = u.argumentTypes().subList(1, u.argumentTypes().size());
    List<byte[]> values = new ArrayList<>();
    for (int i = 0; i < argTypes.size(); i++) {
      try {
        values.add(new io.cassette.cql.language.statements.TermCompiler(new io.cassette.cql.language.statements.Bindings(), ks)
            .compile(def.arguments().get(i), new io.cassette.cql.language.statements.Receiver(ks.name(), table,
                "arg" + i, argTypes.get(i))).get(null));
      } catch (io.cassette.cql.CqlException e) {
        throw io.cassette.cql.language.Errors.invalid("Type error: " + argTexts.get(i) + " cannot be passed as argument "
            + (i + 1) + " of function " + name + " of type " + io.cassette.cql.language.types.Types.toCql(argTypes.get(i)));
      }
    }
    return new ColumnMask(u.name(), argTypes, values, u);
  }

  /** The clause as DESCRIBE prints it: {@code system.mask_inner(1, null)}, {@code ks.f(2)}. */
  public String toCql() {
    StringBuilder sb = new StringBuilder(udf == null ? "system" : io.cassette.cql.language.types.Identifiers
        .quoteIfNeeded(udf.keyspace())).append('.').append(udf == null ? function
        : io.cassette.cql.language.types.Identifiers.quoteIfNeeded(function)).append('(');
    for (int i = 0; i < arguments.size(); i++) {
      sb.append(i == 0 ? "" : ", ").append(arguments.get(i) == null ? "null"
          : io.cassette.cql.language.types.TextForms.toCqlLiteral(argumentTypes.get(i), arguments.get(i)));
    }
    return sb.append(')').toString();
  }
}
