package io.cassette.bench.jmh;

import io.cassette.cql.ColumnSpec;
import io.cassette.cql.CqlType;
import io.cassette.cql.QueryOptions;
import io.cassette.cql.Result;
import io.cassette.cql.transport.messages.CqlCodec;
import io.cassette.cql.transport.messages.Opcode;
import io.cassette.cql.transport.messages.Request;
import io.cassette.cql.transport.messages.RequestDecoder;
import io.cassette.cql.transport.messages.ResultEncoder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The CQL door's codec for what cassandra-stress sends and gets, per request:
 * {@code decodeWrite} decodes the body of a v5 EXECUTE of the stress INSERT (16-byte id, key
 * and five 34-byte values) and takes its bound values out as the statement layer does
 * ({@code QueryOptions.values}, each as an array); {@code encodeRead} builds the result row of
 * a stress SELECT from its five values as the SELECT's collector does and encodes the RESULT
 * body (no metadata, as a driver asks for prepared statements).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xbatch", "-Xmx128m", "-Xms128m"})
public class CqlCodecBenchmark {
  private ByteBuf executeBody;
  private final List<byte[]> selected = new ArrayList<>();
  private final List<ColumnSpec> columns = new ArrayList<>();
  private final PooledByteBufAllocator alloc = PooledByteBufAllocator.DEFAULT;

  @Setup
  public void setUp() {
    executeBody = Unpooled.buffer(512);
    CqlCodec.writeShortBytes(executeBody, new byte[16]); // prepared id
    CqlCodec.writeShortBytes(executeBody, new byte[16]); // result metadata id (v5)
    executeBody.writeShort(1); // ONE
    executeBody.writeInt(0x01 | 0x02 | 0x20); // values, skip metadata, default timestamp
    executeBody.writeShort(6);
    CqlCodec.writeBytes(executeBody, "0123456789".getBytes());
    for (int i = 0; i < 5; i++) {
      CqlCodec.writeBytes(executeBody, new byte[34]);
    }
    executeBody.writeLong(1_700_000_000_000_000L);
    for (int i = 0; i < 5; i++) {
      selected.add(new byte[34]);
      columns.add(new ColumnSpec("keyspace1", "standard1", "C" + i, new CqlType.NativeType(CqlType.Native.BLOB)));
    }
  }

  @Benchmark
  public void decodeWrite(Blackhole bh) {
    executeBody.readerIndex(0);
    Request.Execute e = (Request.Execute) RequestDecoder.decode(Opcode.EXECUTE, executeBody, 5);
    QueryOptions o = e.options();
    for (int i = 0; i < o.values().size(); i++) {
      bh.consume(value(o, i));
    }
  }

  @Benchmark
  public int encodeRead() {
    List<byte[]> values = new ArrayList<>(5);
    for (byte[] v : selected) {
      values.add(v);
    }
    List<List<ByteBuffer>> rows = new ArrayList<>(1);
    rows.add(row(values));
    ByteBuf out = ResultEncoder.encode(alloc, new Result.Rows(columns, rows, null), 5, true, null, null);
    int n = out.readableBytes();
    out.release();
    return n;
  }

  /** A bound value as an array, as QueryContext.bound takes it. */
  static byte[] value(QueryOptions o, int i) {
    if (o.values() instanceof io.cassette.cql.BoundValues b) {
      return b.bytes(i);
    }
    return o.values().get(i).array();
  }

  /** A result row as SelectStatement's collector makes it. */
  static List<ByteBuffer> row(List<byte[]> values) {
    return new io.cassette.cql.ValueRow(values);
  }
}
