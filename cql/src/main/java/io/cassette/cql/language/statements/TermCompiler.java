package io.cassette.cql.language.statements;

import static io.cassette.cql.language.Errors.invalid;

import io.cassette.cql.CqlType;
import io.cassette.cql.CqlType.ListType;
import io.cassette.cql.CqlType.MapType;
import io.cassette.cql.CqlType.Native;
import io.cassette.cql.CqlType.NativeType;
import io.cassette.cql.CqlType.SetType;
import io.cassette.cql.CqlType.TupleType;
import io.cassette.cql.CqlType.UdtType;
import io.cassette.cql.CqlType.VectorType;
import io.cassette.cql.language.functions.NativeFunction;
import io.cassette.cql.language.functions.NativeFunctions;
import io.cassette.cql.language.parser.Term;
import io.cassette.cql.language.schema.KeyspaceMetadata;
import io.cassette.cql.language.schema.Schema;
import io.cassette.cql.language.schema.TypeResolver;
import io.cassette.cql.language.types.CollectionCodec;
import io.cassette.cql.language.types.Json;
import io.cassette.cql.language.types.Literals;
import io.cassette.cql.language.types.Types;
import io.cassette.cql.language.types.ValueComparison;
import io.cassette.cql.language.types.ValueValidation;
import io.cassette.cql.language.types.Values;
import io.cassette.cql.language.types.Values.Constant;
import io.cassette.cql.language.types.Vectors;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/** Compiles terms against the receiver they are assigned to, with Cassandra's type checks. */
public final class TermCompiler {
  private final Bindings bindings;
  private final KeyspaceMetadata keyspace;

  public TermCompiler(Bindings bindings, KeyspaceMetadata keyspace) {
    this.bindings = bindings;
    this.keyspace = keyspace;
  }

  /** The whole schema when the compiler was given it (user functions of other keyspaces), else null. */
  private Schema schema;

  /** As the two-argument form, seeing {@code schema} too (for user-defined functions). */
  public TermCompiler(Bindings bindings, KeyspaceMetadata keyspace, Schema schema) {
    this(bindings, keyspace);
    this.schema = schema;
  }

  public Schema schema() {
    return schema;
  }

  public KeyspaceMetadata keyspace() {
    return keyspace;
  }

  public Bindings bindings() {
    return bindings;
  }

  public Value compile(Term t, Receiver r) {
    CqlType type = r.type();
    if (t instanceof Term.Precompiled p) {
      return (Value) p.value();
    }
    if (t instanceof Term.Null) {
      return Value.constant(null);
    }
    if (t instanceof Term.BindMarker m) {
      bindings.register(m.index(), m.name(), r.spec());
      int index = m.index();
      return ctx -> {
        byte[] v = ctx.bound(index);
        if (v != null && v != QueryContext.UNSET) {
          ValueValidation.validate(type, v);
        }
        return v;
      };
    }
    if (t instanceof Term.Literal l) {
      return Value.constant(literal(l, r));
    }
    if (t instanceof Term.Negate n) {
      if (n.term() instanceof Term.Literal l && (l.kind() == Constant.INTEGER || l.kind() == Constant.FLOAT)) {
        String text = l.text().startsWith("-") ? l.text().substring(1) : "-" + l.text();
        return Value.constant(literal(new Term.Literal(l.kind(), text), r));
      }
      return arithmetic(new Term.Arithmetic('-', new Term.Literal(Constant.INTEGER, "0"), n.term()), r);
    }
    if (t instanceof Term.ListLiteral l) {
      return listLiteral(l, r);
    }
    if (t instanceof Term.SetLiteral s) {
      if (!(type instanceof SetType st)) {
        throw invalid("Invalid set literal for " + r.name() + " of type " + Types.toCql(type));
      }
      List<Value> es = new ArrayList<>();
      for (Term e : s.elements()) {
        es.add(compile(e, r.named("value(" + r.name() + ")", st.element())));
      }
      return ctx -> {
        TreeMap<byte[], byte[]> sorted = new TreeMap<>((a, b) -> ValueComparison.compare(st.element(), a, b));
        for (Value e : es) {
          byte[] v = e.get(ctx);
          if (v == null) {
            throw invalid("null is not supported inside collections");
          }
          if (v == QueryContext.UNSET) {
            throw invalid("unset value is not supported inside collections");
          }
          sorted.put(v, v);
        }
        return CollectionCodec.pack(new ArrayList<>(sorted.keySet()));
      };
    }
    if (t instanceof Term.MapLiteral m) {
      if (m.keys().isEmpty() && (type instanceof SetType || type instanceof ListType)) {
        return Value.constant(CollectionCodec.pack(List.of()));
      }
      if (!(type instanceof MapType mt)) {
        throw invalid("Invalid map literal for " + r.name() + " of type " + Types.toCql(type));
      }
      List<Value> ks = new ArrayList<>();
      List<Value> vs = new ArrayList<>();
      for (int i = 0; i < m.keys().size(); i++) {
        ks.add(compile(m.keys().get(i), r.named("key(" + r.name() + ")", mt.key())));
        vs.add(compile(m.values().get(i), r.named("value(" + r.name() + ")", mt.value())));
      }
      return ctx -> {
        TreeMap<byte[], byte[]> sorted = new TreeMap<>((a, b) -> ValueComparison.compare(mt.key(), a, b));
        for (int i = 0; i < ks.size(); i++) {
          byte[] k = ks.get(i).get(ctx);
          byte[] v = vs.get(i).get(ctx);
          if (k == null || v == null) {
            throw invalid("null is not supported inside collections");
          }
          if (k == QueryContext.UNSET || v == QueryContext.UNSET) {
            throw invalid("unset value is not supported inside collections");
          }
          sorted.put(k, v);
        }
        return CollectionCodec.packMap(new ArrayList<>(sorted.keySet()), new ArrayList<>(sorted.values()));
      };
    }
    if (t instanceof Term.TupleLiteral tl) {
      if (!(type instanceof TupleType tt)) {
        throw invalid("Invalid tuple type literal for " + r.name() + " of type " + Types.toCql(type));
      }
      if (tl.elements().size() > tt.elements().size()) {
        throw invalid("Invalid tuple literal for " + r.name() + ": too many elements. Type "
            + Types.toCql(type) + " expects " + tt.elements().size() + " but got " + tl.elements().size());
      }
      List<Value> es = new ArrayList<>();
      for (int i = 0; i < tl.elements().size(); i++) {
        es.add(compile(tl.elements().get(i), r.named(r.name() + "[" + i + "]", tt.elements().get(i))));
      }
      return ctx -> {
        List<byte[]> fs = new ArrayList<>();
        for (Value e : es) {
          byte[] v = e.get(ctx);
          fs.add(v == QueryContext.UNSET ? null : v);
        }
        return CollectionCodec.packFields(fs);
      };
    }
    if (t instanceof Term.UdtLiteral ul) {
      if (!(type instanceof UdtType ut)) {
        throw invalid("Invalid user type literal for " + r.name() + " of type " + Types.toCql(type));
      }
      Value[] fields = new Value[ut.fieldNames().size()];
      for (int i = 0; i < ul.fields().size(); i++) {
        int idx = ut.fieldNames().indexOf(ul.fields().get(i));
        if (idx < 0) {
          throw invalid("Unknown field '" + ul.fields().get(i) + "' in value of user defined type " + ut.name());
        }
        fields[idx] = compile(ul.values().get(i), r.named(r.name() + "." + ul.fields().get(i), ut.fieldTypes().get(idx)));
      }
      return ctx -> {
        List<byte[]> fs = new ArrayList<>();
        for (Value f : fields) {
          byte[] v = f == null ? null : f.get(ctx);
          fs.add(v == QueryContext.UNSET ? null : v);
        }
        return CollectionCodec.packFields(fs);
      };
    }
    if (t instanceof Term.FunctionCall f) {
      return function(f, r);
    }
    if (t instanceof Term.TypeHint h) {
      CqlType hinted = TypeResolver.resolve(h.type(), keyspace);
      if (!Types.isCompatible(Types.freeze(type), Types.freeze(hinted)) && !Types.isCompatible(type, hinted)) {
        throw invalid("Cannot assign value of type " + Types.toCql(hinted) + " to " + r.name()
            + " of type " + Types.toCql(type));
      }
      return compile(h.term(), r.named(r.name(), hinted));
    }
    if (t instanceof Term.Arithmetic a) {
      return arithmetic(a, r);
    }
    if (t instanceof Term.ColumnRef c) {
      throw invalid("Undefined name " + c.name() + " in where clause ('" + r.name() + " = " + c.name() + "')");
    }
    throw invalid("Unsupported term " + t);
  }

  private byte[] literal(Term.Literal l, Receiver r) {
    CqlType type = r.type();
    if (type instanceof NativeType n) {
      return Literals.fromConstant(n, l.kind(), l.text(), r.name());
    }
    if (type instanceof CqlType.CustomType && l.kind() == Constant.HEX) {
      return Literals.parseHex(l.text());
    }
    throw invalid("Invalid " + l.kind() + " constant (" + l.text() + ") for \"" + r.name()
        + "\" of type " + Types.toCql(type));
  }

  private Value listLiteral(Term.ListLiteral l, Receiver r) {
    CqlType type = r.type();
    if (type instanceof VectorType vt) {
      if (l.elements().size() != vt.dimension()) {
        throw invalid("Invalid vector literal for " + r.name() + " of type " + Types.toCql(type)
            + "; expected " + vt.dimension() + " elements, but given " + l.elements().size());
      }
      List<Value> es = new ArrayList<>();
      for (Term e : l.elements()) {
        es.add(compile(e, r.named("value(" + r.name() + ")", vt.element())));
      }
      return ctx -> {
        List<byte[]> vs = new ArrayList<>();
        for (Value e : es) {
          byte[] v = e.get(ctx);
          if (v == null || v == QueryContext.UNSET) {
            throw invalid("null is not supported inside vectors");
          }
          vs.add(v);
        }
        return Vectors.join(vt, vs);
      };
    }
    if (!(type instanceof ListType lt)) {
      throw invalid("Invalid list literal for " + r.name() + " of type " + Types.toCql(type));
    }
    List<Value> es = new ArrayList<>();
    for (Term e : l.elements()) {
      es.add(compile(e, r.named("value(" + r.name() + ")", lt.element())));
    }
    return ctx -> {
      List<byte[]> vs = new ArrayList<>();
      for (Value e : es) {
        byte[] v = e.get(ctx);
        if (v == null) {
          throw invalid("null is not supported inside collections");
        }
        if (v == QueryContext.UNSET) {
          throw invalid("unset value is not supported inside collections");
        }
        vs.add(v);
      }
      return CollectionCodec.pack(vs);
    };
  }

  /**
   * The user-defined scalar function a call in a term names (ks.f, or a bare name no native
   * function has, in this keyspace), chosen by arity and argument types; null when it names none.
   */
  private io.cassette.cql.language.schema.UserFunction userFunction(Term.FunctionCall f) {
    String name = f.name().toLowerCase(java.util.Locale.ROOT);
    String ks = f.keyspace();
    if ((ks == null && NativeFunctions.exists(name)) || "system".equals(ks) || name.equals("token")) {
      return null;
    }
    KeyspaceMetadata k = ks == null ? keyspace
        : schema != null ? schema.keyspace(ks) : keyspace != null && keyspace.name().equals(ks) ? keyspace : null;
    if (k == null) {
      return null;
    }
    io.cassette.cql.language.schema.UserFunction found = null;
    for (io.cassette.cql.language.schema.UserFunction u : k.functions(name)) {
      if (u.argumentTypes().size() != f.args().size()) {
        continue;
      }
      boolean fits = true;
      for (int i = 0; i < f.args().size() && fits; i++) {
        CqlType given = inferType(f.args().get(i));
        fits = given == null || Types.freeze(given).equals(Types.freeze(u.argumentTypes().get(i)));
      }
      if (fits) {
        if (found != null) {
          throw invalid("Ambiguous call to function " + k.name() + "." + name + ": use type casts to disambiguate");
        }
        found = u;
      }
    }
    return found;
  }

  /** The type a term has by itself (function results, hints), or null when the receiver decides. */
  public CqlType inferType(Term t) {
    if (t instanceof Term.FunctionCall f && !f.name().equals("fromjson")) {
      List<CqlType> argTypes = new ArrayList<>();
      for (Term a : f.args()) {
        argTypes.add(inferType(a));
      }
      io.cassette.cql.language.schema.UserFunction u = userFunction(f);
      return u != null ? u.returnType() : NativeFunctions.resolve(f.name(), argTypes).returnType();
    }
    if (t instanceof Term.TypeHint h) {
      return TypeResolver.resolve(h.type(), keyspace);
    }
    return null;
  }

  private Value function(Term.FunctionCall f, Receiver r) {
    String name = f.name().toLowerCase();
    if (name.equals("fromjson")) {
      if (f.args().size() != 1) {
        throw invalid("fromJson() only accepts one argument");
      }
      Value arg = compile(f.args().get(0), r.named("fromjson(" + r.name() + ")", Types.TEXT));
      CqlType type = r.type();
      String rn = r.name();
      return ctx -> {
        byte[] v = arg.get(ctx);
        if (v == null) {
          return null;
        }
        return JsonValues.fromJson(type,
            Json.parse(Values.toText(v), ctx.services.statementLimits().get().maxNesting()), rn);
      };
    }
    if (name.equals("token")) {
      throw invalid("Unsupported use of token() function");
    }
    io.cassette.cql.language.schema.UserFunction u = userFunction(f);
    if (u != null) {
      if (!Types.isCompatible(r.type(), u.returnType())) {
        throw invalid("Type error: cannot assign result of function " + u.keyspace() + "." + u.name() + " (type "
            + Types.toCql(u.returnType()) + ") to " + r.name() + " (type " + Types.toCql(r.type()) + ")");
      }
      List<Value> args = new ArrayList<>();
      for (int i = 0; i < f.args().size(); i++) {
        try {
          args.add(compile(f.args().get(i), r.named(u.name() + "(arg" + i + ")", u.argumentTypes().get(i))));
        } catch (io.cassette.cql.CqlException e) {
          throw invalid("Type error: " + f.args().get(i) + " cannot be passed as argument " + i + " of function "
              + u.keyspace() + "." + u.name() + " of type " + Types.toCql(u.argumentTypes().get(i)));
        }
      }
      return ctx -> {
        List<byte[]> vs = new ArrayList<>(args.size());
        for (Value a : args) {
          byte[] v = a.get(ctx);
          vs.add(v == QueryContext.UNSET ? null : v);
        }
        return io.cassette.cql.language.functions.UserFunctions.call(u, vs,
            ctx.services.userFunctions().get().failTimeoutMillis());
      };
    }
    List<CqlType> argTypes = new ArrayList<>();
    for (Term a : f.args()) {
      argTypes.add(inferType(a));
    }
    NativeFunction fn = NativeFunctions.resolve(name, argTypes);
    if (!Types.isCompatible(r.type(), fn.returnType())) {
      throw invalid("Type error: cannot assign result of function system." + fn.name() + " (type "
          + Types.toCql(fn.returnType()) + ") to " + r.name() + " (type " + Types.toCql(r.type()) + ")");
    }
    List<Value> args = new ArrayList<>();
    for (int i = 0; i < f.args().size(); i++) {
      args.add(compile(f.args().get(i), r.named(fn.name() + "(arg" + i + ")", fn.argTypes().get(i))));
    }
    return ctx -> {
      List<byte[]> vs = new ArrayList<>(args.size());
      for (Value a : args) {
        byte[] v = a.get(ctx);
        vs.add(v == QueryContext.UNSET ? null : v);
      }
      return fn.apply(vs, ctx);
    };
  }

  private Value arithmetic(Term.Arithmetic a, Receiver r) {
    if (!(r.type() instanceof NativeType nt) || !isNumeric(nt.kind())) {
      throw invalid("the '" + a.op() + "' operation is not supported between " + a.left() + " and " + a.right());
    }
    Native kind = nt.kind();
    Value left = compile(a.left(), r);
    Value right = compile(a.right(), r);
    return ctx -> {
      byte[] x = left.get(ctx);
      byte[] y = right.get(ctx);
      if (x == null || y == null) {
        return null;
      }
      BigDecimal p = Values.toNumber(kind, x);
      BigDecimal q = Values.toNumber(kind, y);
      BigDecimal res = switch (a.op()) {
        case '+' -> p.add(q);
        case '-' -> p.subtract(q);
        case '*' -> p.multiply(q);
        case '/' -> {
          if (q.signum() == 0) {
            throw new io.cassette.cql.FunctionFailureException("system", "_divide",
                List.of(Types.toCql(r.type()), Types.toCql(r.type())),
                "the operation '" + Types.toCql(r.type()) + " / " + Types.toCql(r.type()) + "' failed: / by zero");
          }
          yield kind == Native.DECIMAL || kind == Native.FLOAT || kind == Native.DOUBLE
              ? p.divide(q, MathContext.DECIMAL128) : new BigDecimal(p.toBigInteger().divide(q.toBigInteger()));
        }
        default -> p.remainder(q);
      };
      return Values.ofNumber(kind, res);
    };
  }

  private static boolean isNumeric(Native k) {
    return switch (k) {
      case INT, BIGINT, SMALLINT, TINYINT, VARINT, DECIMAL, FLOAT, DOUBLE, COUNTER -> true;
      default -> false;
    };
  }
}
