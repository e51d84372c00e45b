package io.cassette.cql.language;

import io.cassette.cql.ClientState;
import io.cassette.cql.ColumnSpec;
import io.cassette.cql.CqlException;
import io.cassette.cql.QueryOptions;
import io.cassette.cql.Result;
import io.cassette.cql.language.types.TextForms;
import io.cassette.cql.language.types.Values;
import io.cassette.storage.Engine;
import io.cassette.storage.EngineOptions;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** A real engine in a directory and a CqlLanguage over it, with helpers that render rows as text. */
final class LanguageFixture implements AutoCloseable {
  final Path dir;
  Engine engine;
  CqlLanguage cql;
  final ClientState state = new ClientState(new InetSocketAddress("127.0.0.1", 40000));

  LanguageFixture(Path dir) {
    this.dir = dir;
    open();
  }

  void open() {
    engine = Engine.open(EngineOptions.defaults(dir));
    cql = new CqlLanguage(io.cassette.coordinator.local.LocalCoordinator.open(engine, null), NodeInfo.singleNode("Test Cluster", InetAddress.getLoopbackAddress(), 9042,
        UUID.fromString("11111111-2222-3333-4444-555555555555"), List.of(-9000L, 0L, 9000L)));
  }

  void restart() {
    engine.close();
    open();
  }

  Result run(String query) {
    return cql.query(query, QueryOptions.defaults(5), state);
  }

  Result run(String query, Object... values) {
    List<ByteBuffer> vs = new ArrayList<>();
    for (Object v : values) {
      vs.add(v == null ? null : ByteBuffer.wrap(encode(v)));
    }
    QueryOptions o = new QueryOptions(io.cassette.cql.Consistency.ONE, vs, null, false, -1, null,
        io.cassette.cql.Consistency.SERIAL, Long.MIN_VALUE, null, Integer.MIN_VALUE, 5);
    return cql.query(query, o, state);
  }

  static byte[] encode(Object v) {
    if (v instanceof Integer i) {
      return Values.ofInt(i);
    }
    if (v instanceof Long l) {
      return Values.ofLong(l);
    }
    if (v instanceof String s) {
      return Values.ofText(s);
    }
    if (v instanceof Boolean b) {
      return Values.ofBoolean(b);
    }
    if (v instanceof byte[] b) {
      return b;
    }
    throw new IllegalArgumentException(String.valueOf(v));
  }

  /** Rows rendered as "a, b, c" with CQL literals (null for nulls). */
  List<String> rows(String query) {
    return render((Result.Rows) run(query));
  }

  static List<String> render(Result.Rows rows) {
    List<String> out = new ArrayList<>();
    for (List<ByteBuffer> r : rows.rows()) {
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < r.size(); i++) {
        ByteBuffer b = r.get(i);
        byte[] v = null;
        if (b != null) {
          v = new byte[b.remaining()];
          b.duplicate().get(v);
        }
        sb.append(i == 0 ? "" : ", ").append(TextForms.toCqlLiteral(rows.columns().get(i).type(), v));
      }
      out.add(sb.toString());
    }
    return out;
  }

  static List<String> names(Result.Rows rows) {
    List<String> out = new ArrayList<>();
    for (ColumnSpec c : rows.columns()) {
      out.add(c.name());
    }
    return out;
  }

  CqlException error(String query) {
    try {
      run(query);
    } catch (CqlException e) {
      return e;
    }
    throw new AssertionError("expected an error for: " + query);
  }

  @Override
  public void close() {
    engine.close();
  }
}
