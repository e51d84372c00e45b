package io.cassette.cql.language.statements;

import static io.cassette.cql.language.Errors.invalid;

import io.cassette.cql.ColumnSpec;
import io.cassette.cql.CqlType;
import io.cassette.cql.CqlType.Native;
import io.cassette.cql.CqlType.NativeType;
import io.cassette.cql.CqlType.UdtType;
import io.cassette.cql.language.functions.NativeFunction;
import io.cassette.cql.language.functions.NativeFunctions;
import io.cassette.cql.language.parser.Selector;
import io.cassette.cql.language.parser.Term;
import io.cassette.cql.language.schema.ColumnMetadata;
import io.cassette.cql.language.schema.TableMetadata;
import io.cassette.cql.language.schema.TimeUuid;
import io.cassette.cql.language.schema.TypeResolver;
import io.cassette.cql.language.types.CollectionCodec;
import io.cassette.cql.language.types.Identifiers;
import io.cassette.cql.language.types.TextForms;
import io.cassette.cql.language.types.Types;
import io.cassette.cql.language.types.ValueComparison;
import io.cassette.cql.language.types.Values;
import io.cassette.storage.Cell;
import io.cassette.storage.Murmur3Token;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The compiled SELECT clause: column specs, per-row evaluation and aggregation. */
public final class Selection {
  /** One selected expression. */
  interface Sel {
    CqlType type();

    String name();

    boolean isAggregate();

    byte[] value(RowView row, QueryContext ctx);

    default Aggregator aggregator() {
      Sel self = this;
      return new Aggregator() {
        byte[] first;
        boolean seen;

        @Override
        public void add(RowView row, QueryContext ctx) {
          if (!seen) {
            first = self.value(row, ctx);
            seen = true;
          }
        }

        @Override
        public byte[] result() {
          return first;
        }
      };
    }
  }

  interface Aggregator {
    void add(RowView row, QueryContext ctx);

    byte[] result();
  }

  final TableMetadata table;
  final List<Sel> selectors = new ArrayList<>();
  final List<ColumnSpec> specs = new ArrayList<>();
  final boolean aggregate;
  final boolean wildcard;
  final boolean json;
  /** Masks of the selected columns, checked when the statement runs (Cassandra checks them then). */
  final List<io.cassette.cql.language.schema.ColumnMask> masks = new ArrayList<>();
  /** Columns the rows must carry (for DISTINCT validation). */
  final List<ColumnMetadata> referenced = new ArrayList<>();

  Selection(TableMetadata table, List<Selector.Aliased> clause, boolean json, TermCompiler terms) {
    this.table = table;
    this.json = json;
    this.wildcard = clause.isEmpty();
    if (wildcard) {
      for (ColumnMetadata c : table.columns) {
        add(column(c), null);
      }
    } else {
      for (Selector.Aliased a : clause) {
        add(compile(a.selector(), terms), a.alias());
      }
    }
    boolean agg = false;
    for (Sel s : selectors) {
      agg |= s.isAggregate();
    }
    this.aggregate = agg;
  }

  private void add(Sel s, String alias) {
    selectors.add(s);
    specs.add(new ColumnSpec(table.keyspace, table.name, alias == null ? s.name() : alias, s.type()));
  }

  /** The result metadata: one text column [json] for SELECT JSON. */
  List<ColumnSpec> resultSpecs() {
    if (json) {
      return List.of(new ColumnSpec(table.keyspace, table.name, "[json]", Types.TEXT));
    }
    return specs;
  }

  /** Turns one output row into its JSON form. */
  List<ByteBuffer> toJson(List<byte[]> row) {
    StringBuilder sb = new StringBuilder("{");
    for (int i = 0; i < row.size(); i++) {
      String n = specs.get(i).name();
      String key = Identifiers.quoteIfNeeded(n);
      sb.append(i == 0 ? "" : ", ").append(io.cassette.cql.language.types.Json.quote(key)).append(": ")
          .append(TextForms.toJson(specs.get(i).type(), row.get(i)));
    }
    sb.append('}');
    List<ByteBuffer> out = new ArrayList<>(1);
    out.add(ByteBuffer.wrap(Values.ofText(sb.toString())));
    return out;
  }

  private Sel column(ColumnMetadata c) {
    referenced.add(c);
    io.cassette.cql.language.schema.ColumnMask mask = table.mask(c.name());
    io.cassette.cql.language.functions.NativeFunction maskFunction = null;
    if (mask != null) {
      masks.add(mask);
      maskFunction = mask.resolve(c.type());
    }
    io.cassette.cql.language.functions.NativeFunction fn = maskFunction;
    return new Sel() {
      public CqlType type() {
        return c.type();
      }

      public String name() {
        return c.name();
      }

      public boolean isAggregate() {
        return false;
      }

      public byte[] value(RowView row, QueryContext ctx) {
        byte[] v = row.value(c);
        return mask == null || ctx.services.masking().unmasked(ctx, table) ? v : mask.apply(fn, v, ctx);
      }
    };
  }

  private ColumnMetadata columnOf(String name) {
    ColumnMetadata c = table.column(name);
    if (c == null) {
      throw invalid("Undefined column name " + name + " in table " + table);
    }
    return c;
  }

  private Sel compile(Selector s, TermCompiler terms) {
    if (s instanceof Selector.Column c) {
      return column(columnOf(c.name()));
    }
    if (s instanceof Selector.CountStar) {
      return countStar();
    }
    if (s instanceof Selector.Metadata m) {
      return metadata(m);
    }
    if (s instanceof Selector.Cast c) {
      return cast(compile(c.arg(), terms), TypeResolver.resolve(c.type(), null));
    }
    if (s instanceof Selector.FieldAccess f) {
      Sel inner = compile(f.arg(), terms);
      if (!(inner.type() instanceof UdtType u)) {
        throw invalid("Invalid field selection: " + inner.name() + " of type " + Types.toCql(inner.type())
            + " is not a user type");
      }
      int idx = u.fieldNames().indexOf(f.field());
      if (idx < 0) {
        throw invalid(u.name() + " of type " + Types.toCql(u) + " has no field " + f.field());
      }
      CqlType ft = u.fieldTypes().get(idx);
      return simple(inner.name() + "." + f.field(), ft, (row, ctx) -> {
        byte[] v = inner.value(row, ctx);
        return v == null ? null : CollectionCodec.unpackFields(v, u.fieldTypes().size()).get(idx);
      });
    }
    if (s instanceof Selector.Function f) {
      return function(f, terms);
    }
    if (s instanceof Selector.Value v) {
      return literal(v.term(), terms);
    }
    if (s instanceof Selector.Operation o) {
      return operation(o, terms);
    }
    throw invalid("Unsupported selector " + s);
  }

  private static final List<Native> NUMERIC_RANK = List.of(Native.TINYINT, Native.SMALLINT, Native.INT,
      Native.BIGINT, Native.COUNTER, Native.VARINT, Native.FLOAT, Native.DOUBLE, Native.DECIMAL);

  private Sel operation(Selector.Operation o, TermCompiler terms) {
    Sel left = untypedLiteral(o.left(), terms) ? null : compile(o.left(), terms);
    Sel right = untypedLiteral(o.right(), terms) ? null : compile(o.right(), terms);
    if (left == null && right == null) {
      throw invalid("Cannot infer type for term " + o.left() + " in selection clause (try using a cast to force a type)");
    }
    try {
      if (left == null) {
        left = typedLiteral(((Selector.Value) o.left()).term(), right.type(), terms);
      }
      if (right == null) {
        right = typedLiteral(((Selector.Value) o.right()).term(), left.type(), terms);
      }
    } catch (io.cassette.cql.CqlException e) {
      throw invalid("the '" + o.op() + "' operation is not supported between "
          + (left == null ? ((Selector.Value) o.left()).term() : left.name()) + " and "
          + (right == null ? ((Selector.Value) o.right()).term() : right.name()));
    }
    Sel l = left;
    Sel r = right;
    if (!(l.type() instanceof NativeType lt) || !numeric(lt.kind()) || !(r.type() instanceof NativeType rt)
        || !numeric(rt.kind())) {
      throw invalid("the '" + o.op() + "' operation is not supported between " + l.name() + " and " + r.name());
    }
    Native kind = NUMERIC_RANK.indexOf(lt.kind()) >= NUMERIC_RANK.indexOf(rt.kind()) ? lt.kind() : rt.kind();
    if (kind == Native.COUNTER) {
      kind = Native.BIGINT;
    }
    if ((lt.kind() == Native.VARINT && (rt.kind() == Native.FLOAT || rt.kind() == Native.DOUBLE))
        || (rt.kind() == Native.VARINT && (lt.kind() == Native.FLOAT || lt.kind() == Native.DOUBLE))) {
      kind = Native.DECIMAL;
    }
    Native result = kind;
    String name = l.name() + " " + o.op() + " " + r.name();
    return simple(name, Types.of(result), (row, ctx) -> {
      byte[] x = l.value(row, ctx);
      byte[] y = r.value(row, ctx);
      if (x == null || y == null) {
        return null;
      }
      BigDecimal a = operand(lt.kind(), x, result);
      BigDecimal b = operand(rt.kind(), y, result);
      if (a == null || b == null) {
        return null;
      }
      boolean integral = result != Native.FLOAT && result != Native.DOUBLE && result != Native.DECIMAL;
      BigDecimal v = switch (o.op()) {
        case '+' -> a.add(b);
        case '-' -> a.subtract(b);
        case '*' -> a.multiply(b);
        case '/' -> {
          if (b.signum() == 0) {
            throw new io.cassette.cql.FunctionFailureException("system", "_divide", List.of(Types.toCql(l.type()),
                Types.toCql(r.type())), "the operation '" + Types.toCql(l.type()) + " / "
                + Types.toCql(r.type()) + "' failed: / by zero");
          }
          yield integral ? new BigDecimal(a.toBigInteger().divide(b.toBigInteger()))
              : a.divide(b, MathContext.DECIMAL128);
        }
        default -> integral ? new BigDecimal(a.toBigInteger().remainder(b.toBigInteger())) : a.remainder(b);
      };
      return overflowing(result, v);
    });
  }

  /** A decimal operation sees other operands as Cassandra does: through their double value. */
  private static BigDecimal operand(Native kind, byte[] v, Native result) {
    if (result == Native.DECIMAL && kind != Native.DECIMAL && kind != Native.VARINT) {
      BigDecimal n = Values.toNumber(kind, v);
      return n == null ? null : BigDecimal.valueOf(n.doubleValue());
    }
    return Values.toNumber(kind, v);
  }

  private static boolean untypedLiteral(Selector s, TermCompiler terms) {
    return s instanceof Selector.Value v && terms.inferType(v.term()) == null;
  }

  private Sel typedLiteral(Term t, CqlType type, TermCompiler terms) {
    Value v = terms.compile(t, new Receiver(table.keyspace, table.name, t.toString(), type));
    return simple(t.toString(), type, (row, ctx) -> v.get(ctx));
  }

  private Sel literal(Term t, TermCompiler terms) {
    if (terms.inferType(t) == null) {
      throw invalid("Cannot infer type for term " + t + " in selection clause (try using a cast to force a type)");
    }
    CqlType type = Types.TEXT;
    if (t instanceof Term.Literal l) {
      type = switch (l.kind()) {
        case INTEGER -> Types.INT;
        case FLOAT -> Types.DOUBLE;
        case BOOLEAN -> Types.BOOLEAN;
        case UUID -> Types.UUID;
        case HEX -> Types.BLOB;
        case DURATION -> Types.DURATION;
        default -> Types.TEXT;
      };
    } else if (terms.inferType(t) != null) {
      type = terms.inferType(t);
    }
    Value v = terms.compile(t, new Receiver(table.keyspace, table.name, t.toString(), type));
    return simple(t.toString(), type, (row, ctx) -> v.get(ctx));
  }

  interface RowFn {
    byte[] apply(RowView row, QueryContext ctx);
  }

  private static Sel simple(String name, CqlType type, RowFn fn) {
    return new Sel() {
      public CqlType type() {
        return type;
      }

      public String name() {
        return name;
      }

      public boolean isAggregate() {
        return false;
      }

      public byte[] value(RowView row, QueryContext ctx) {
        return fn.apply(row, ctx);
      }
    };
  }

  private Sel metadata(Selector.Metadata m) {
    ColumnMetadata c = columnOf(m.column());
    String fn = m.function();
    String display = fn.equals("ttl") ? "ttl" : fn.equals("writetime") ? "writetime" : "maxwritetime";
    if (c.isPrimaryKey()) {
      throw invalid("Cannot use selection function " + fn + " on PRIMARY KEY part " + c.name());
    }
    boolean ttl = fn.equals("ttl");
    if (Types.isMultiCell(c.type()) && !fn.equals("maxwritetime")) {
      // Cassandra 5.0: one timestamp (or TTL) per element of a non-frozen collection or UDT.
      CqlType elem = ttl ? Types.INT : Types.BIGINT;
      return simple(display + "(" + c.name() + ")", new io.cassette.cql.CqlType.ListType(elem, false), (row, ctx) -> {
        List<Cell> es = row.elements(c);
        if (es.isEmpty()) {
          return null;
        }
        List<byte[]> out = new ArrayList<>();
        for (Cell e : es) {
          if (ttl) {
            out.add(e.isExpiring() ? Values.ofInt((int) Math.max(0, e.localDeletionTime() - ctx.nowInSeconds())) : null);
          } else {
            out.add(Values.ofLong(e.timestamp()));
          }
        }
        return CollectionCodec.pack(out);
      });
    }
    return simple(display + "(" + c.name() + ")", ttl ? Types.INT : Types.BIGINT, (row, ctx) -> {
      if (Types.isMultiCell(c.type())) {
        long max = Long.MIN_VALUE;
        for (Cell e : row.elements(c)) {
          max = Math.max(max, e.timestamp());
        }
        return max == Long.MIN_VALUE ? null : Values.ofLong(max);
      }
      Cell cell = row.cell(c);
      if (cell == null) {
        return null;
      }
      if (ttl) {
        if (!cell.isExpiring()) {
          return null;
        }
        return Values.ofInt((int) Math.max(0, cell.localDeletionTime() - ctx.nowInSeconds()));
      }
      return Values.ofLong(cell.timestamp());
    });
  }

  private Sel countStar() {
    return new Sel() {
      public CqlType type() {
        return Types.BIGINT;
      }

      public String name() {
        return "count";
      }

      public boolean isAggregate() {
        return true;
      }

      public byte[] value(RowView row, QueryContext ctx) {
        throw new IllegalStateException("aggregate");
      }

      public Aggregator aggregator() {
        return new Aggregator() {
          long n;

          public void add(RowView row, QueryContext ctx) {
            n++;
          }

          public byte[] result() {
            return Values.ofLong(n);
          }
        };
      }
    };
  }

  private Sel function(Selector.Function f, TermCompiler terms) {
    String name = f.name().toLowerCase(Locale.ROOT);
    List<Sel> args = new ArrayList<>();
    if (name.equals("token")) {
      List<String> cols = new ArrayList<>();
      for (Selector a : f.args()) {
        if (!(a instanceof Selector.Column c) || table.column(c.name()) == null
            || table.column(c.name()).kind() != ColumnMetadata.Kind.PARTITION_KEY) {
          throw invalid("Invalid arguments for function token: the token function only accepts the partition key columns");
        }
        cols.add(c.name());
      }
      List<String> expected = new ArrayList<>();
      for (ColumnMetadata c : table.partitionKey) {
        expected.add(c.name());
      }
      if (!cols.equals(expected)) {
        throw invalid("Invalid number of arguments in call to function system.token: "
            + table.partitionKey.size() + " required but " + cols.size() + " provided");
      }
      return simple("system.token(" + String.join(", ", cols) + ")", Types.BIGINT,
          (row, ctx) -> Values.ofLong(Murmur3Token.of(row.partitionKey)));
    }
    for (Selector a : f.args()) {
      if (a instanceof Selector.Value v && terms.inferType(v.term()) == null) {
        args.add(simple(v.term().toString(), null, (row, ctx) -> null)); // typed by the signature below
      } else {
        args.add(compile(a, terms));
      }
    }
    Sel user = UserFunctionSelectors.select(f, name, args, table, terms);
    if (user != null) {
      return user;
    }
    StringBuilder display = new StringBuilder("system.").append(name).append('(');
    for (int i = 0; i < args.size(); i++) {
      display.append(i == 0 ? "" : ", ").append(args.get(i).name());
    }
    String dn = display.append(')').toString();
    switch (name) {
      case "count", "min", "max", "sum", "avg" -> {
        if (args.size() != 1) {
          throw invalid("Invalid number of arguments in call to function system." + name + ": 1 required but "
              + args.size() + " provided");
        }
        return aggregate(name, dn, args.get(0));
      }
      case "tojson" -> {
        if (args.size() != 1) {
          throw invalid("toJson() only accepts one argument (got " + args.size() + ")");
        }
        Sel a = args.get(0);
        return simple(dn, Types.TEXT, (row, ctx) -> Values.ofText(TextForms.toJson(a.type(), a.value(row, ctx))));
      }
      case "ttl", "writetime" -> throw invalid("Invalid arguments for " + name);
      default -> { }
    }
    List<CqlType> argTypes = new ArrayList<>();
    for (int i = 0; i < args.size(); i++) {
      // A bare literal or marker takes its type from the function's signature.
      boolean untyped = f.args().get(i) instanceof Selector.Value v && terms.inferType(v.term()) == null;
      argTypes.add(untyped ? null : args.get(i).type());
    }
    List<CqlType> literalTypes = new ArrayList<>();
    for (int i = 0; i < args.size(); i++) {
      literalTypes.add(argTypes.get(i) == null && f.args().get(i) instanceof Selector.Value v
          ? (v.term() instanceof io.cassette.cql.language.parser.Term.ListLiteral l
              && io.cassette.cql.language.functions.VectorFunctions.isSimilarity(name)
              ? new CqlType.VectorType(Types.FLOAT, l.elements().size()) : preferredNumericType(v.term())) : null);
    }
    List<String> argTexts = new ArrayList<>();
    for (Sel a : args) {
      argTexts.add(a.name());
    }
    NativeFunction fn = io.cassette.cql.language.functions.MaskFunctions.isMask(name)
        ? io.cassette.cql.language.functions.MaskFunctions.resolve(name, argTypes, argTexts)
        : NativeFunctions.resolve(name, argTypes, literalTypes);
    for (int i = 0; i < args.size(); i++) {
      if (argTypes.get(i) == null) {
        Selector.Value v = (Selector.Value) f.args().get(i);
        Value compiled;
        try {
          compiled = terms.compile(v.term(), new Receiver(table.keyspace, table.name,
              fn.name() + "(arg" + i + ")", fn.argTypes().get(i)));
        } catch (io.cassette.cql.CqlException e) {
          if (!io.cassette.cql.language.functions.MaskFunctions.isMask(name)) {
            throw e;
          }
          // Cassandra's FunctionCall text (kept to the 5.0 functions here; older ones have their own texts)
          throw invalid("Type error: " + v.term() + " cannot be passed as argument " + i + " of function system."
              + fn.name() + " of type " + Types.toCql(fn.argTypes().get(i)));
        }
        args.set(i, simple(v.term().toString(), fn.argTypes().get(i), (row, ctx) -> compiled.get(ctx)));
      }
    }
    return simple(dn, fn.returnType(), (row, ctx) -> {
      List<byte[]> vs = new ArrayList<>(args.size());
      for (Sel a : args) {
        vs.add(a.value(row, ctx));
      }
      return fn.apply(vs, ctx);
    });
  }

  /**
   * The type Cassandra prefers for a numeric literal when a function's overloads must choose:
   * int for an integer that fits, else bigint, else varint; double for a float. Null otherwise.
   */
  static CqlType preferredNumericType(io.cassette.cql.language.parser.Term t) {
    if (t instanceof io.cassette.cql.language.parser.Term.Negate n) {
      t = n.term();
    }
    if (!(t instanceof io.cassette.cql.language.parser.Term.Literal l)) {
      return null;
    }
    if (l.kind() == io.cassette.cql.language.types.Values.Constant.FLOAT) {
      return Types.DOUBLE;
    }
    if (l.kind() != io.cassette.cql.language.types.Values.Constant.INTEGER) {
      return null;
    }
    java.math.BigInteger v;
    try {
      v = new java.math.BigInteger(l.text());
    } catch (NumberFormatException e) {
      return null;
    }
    // -2147483648 is written as the negation of 2147483648: both fit an int's range by magnitude.
    return v.bitLength() <= 31 || v.equals(java.math.BigInteger.ONE.shiftLeft(31)) ? Types.INT
        : v.bitLength() <= 63 || v.equals(java.math.BigInteger.ONE.shiftLeft(63)) ? Types.BIGINT : Types.VARINT;
  }

  private Sel aggregate(String fn, String name, Sel arg) {
    CqlType argType = arg.type();
    if (arg.isAggregate()) {
      throw invalid("aggregate functions cannot be used as arguments of aggregate functions");
    }
    CqlType type = fn.equals("count") ? Types.BIGINT : argType;
    if ((fn.equals("sum") || fn.equals("avg")) && !(argType instanceof NativeType n && numeric(n.kind()))) {
      StringBuilder sigs = new StringBuilder();
      for (String t : List.of("double", "bigint", "tinyint", "smallint", "decimal", "int", "varint", "counter", "float")) {
        sigs.append(sigs.length() == 0 ? "" : ", ").append("system.").append(fn).append(" : (").append(t)
            .append(") -> ").append(t);
      }
      throw invalid("Invalid call to function " + fn + ", none of its type signatures match (known type signatures: "
          + sigs + ")");
    }
    return new Sel() {
      public CqlType type() {
        return type;
      }

      public String name() {
        return name;
      }

      public boolean isAggregate() {
        return true;
      }

      public byte[] value(RowView row, QueryContext ctx) {
        throw new IllegalStateException("aggregate");
      }

      public Aggregator aggregator() {
        return new Aggregator() {
          long count;
          byte[] best;
          BigDecimal sum = BigDecimal.ZERO;
          double dsum;

          public void add(RowView row, QueryContext ctx) {
            byte[] v = arg.value(row, ctx);
            if (v == null) {
              return;
            }
            count++;
            switch (fn) {
              case "min" -> {
                if (best == null || ValueComparison.compare(argType, v, best) < 0) {
                  best = v;
                }
              }
              case "max" -> {
                if (best == null || ValueComparison.compare(argType, v, best) > 0) {
                  best = v;
                }
              }
              case "sum", "avg" -> {
                Native k = ((NativeType) argType).kind();
                if (k == Native.FLOAT || k == Native.DOUBLE) {
                  dsum += k == Native.FLOAT ? Float.intBitsToFloat(Values.toInt(v)) : Double.longBitsToDouble(Values.toLong(v));
                } else if (v.length > 0) {
                  sum = sum.add(Values.toNumber(k, v));
                }
              }
              default -> { }
            }
          }

          public byte[] result() {
            switch (fn) {
              case "count":
                return Values.ofLong(count);
              case "min":
              case "max":
                return best;
              default:
                break;
            }
            Native k = ((NativeType) argType).kind();
            if (k == Native.FLOAT || k == Native.DOUBLE) {
              double d = fn.equals("avg") ? (count == 0 ? 0 : dsum / count) : dsum;
              return k == Native.FLOAT ? Values.ofFloat((float) d) : Values.ofDouble(d);
            }
            BigDecimal r = sum;
            if (fn.equals("avg")) {
              if (count == 0) {
                r = BigDecimal.ZERO;
              } else if (k == Native.DECIMAL) {
                r = sum.divide(BigDecimal.valueOf(count), MathContext.DECIMAL128);
              } else {
                r = new BigDecimal(sum.toBigInteger().divide(BigInteger.valueOf(count)));
              }
            }
            return overflowing(k, r);
          }
        };
      }
    };
  }

  /** Integer sums wrap around like Java arithmetic, as Cassandra's do. */
  private static byte[] overflowing(Native k, BigDecimal r) {
    return switch (k) {
      case INT -> Values.ofInt(r.toBigInteger().intValue());
      case BIGINT, COUNTER -> Values.ofLong(r.toBigInteger().longValue());
      case SMALLINT -> ByteBuffer.allocate(2).putShort(r.toBigInteger().shortValue()).array();
      case TINYINT -> new byte[] {r.toBigInteger().byteValue()};
      default -> Values.ofNumber(k, r);
    };
  }

  private static boolean numeric(Native k) {
    return switch (k) {
      case INT, BIGINT, SMALLINT, TINYINT, VARINT, DECIMAL, FLOAT, DOUBLE, COUNTER -> true;
      default -> false;
    };
  }

  private Sel cast(Sel arg, CqlType to) {
    CqlType from = arg.type();
    String name = "cast(" + arg.name() + " as " + Types.toCql(to) + ")";
    if (!(from instanceof NativeType f) || !(to instanceof NativeType t)) {
      throw invalid("Cannot cast " + Types.toCql(from) + " to " + Types.toCql(to));
    }
    Native fk = f.kind();
    Native tk = t.kind();
    if (fk == tk) {
      return simple(name, to, arg::value);
    }
    if (tk == Native.TEXT || tk == Native.ASCII) {
      return simple(name, to, (row, ctx) -> {
        byte[] v = arg.value(row, ctx);
        return v == null ? null : Values.ofText(TextForms.toText(from, v));
      });
    }
    if (numeric(fk) && numeric(tk) && tk != Native.COUNTER) {
      return simple(name, to, (row, ctx) -> {
        byte[] v = arg.value(row, ctx);
        if (v == null) {
          return null;
        }
        BigDecimal n = Values.toNumber(fk, v);
        if (n == null) {
          return tk == Native.DOUBLE ? Values.ofDouble(Double.longBitsToDouble(Values.toLong(v)))
              : tk == Native.FLOAT ? Values.ofFloat((float) Double.longBitsToDouble(Values.toLong(v))) : null;
        }
        return overflowing(tk == Native.VARINT || tk == Native.DECIMAL || tk == Native.FLOAT
            || tk == Native.DOUBLE ? tk : tk, tk == Native.VARINT ? new BigDecimal(n.toBigInteger()) : n);
      });
    }
    if ((fk == Native.TIMEUUID || fk == Native.TIMESTAMP || fk == Native.DATE)
        && (tk == Native.TIMESTAMP || tk == Native.DATE)) {
      NativeFunction fn = NativeFunctions.resolve(tk == Native.TIMESTAMP ? "totimestamp" : "todate", List.of(from));
      return simple(name, to, (row, ctx) -> {
        List<byte[]> a = new ArrayList<>();
        a.add(arg.value(row, ctx));
        return fn.apply(a, ctx);
      });
    }
    throw invalid("Cannot cast " + Types.toCql(from) + " to " + Types.toCql(to));
  }

  static long unused() {
    return TimeUuid.UUID_EPOCH_OFFSET;
  }
}
