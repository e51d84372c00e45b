package io.cassette.cql.language.functions;

import io.cassette.cql.CqlType;
import io.cassette.cql.language.statements.QueryContext;
import java.util.List;

/** A built-in scalar function of the {@code system} keyspace with one signature. */
public record NativeFunction(String name, List<CqlType> argTypes, CqlType returnType, Body body) {

  /** Computes the result from serialized arguments (null for null). */
  @FunctionalInterface
  public interface Body {
    byte[] apply(List<byte[]> args, QueryContext ctx);
  }

  public byte[] apply(List<byte[]> args, QueryContext ctx) {
    return body.apply(args, ctx);
  }
}
