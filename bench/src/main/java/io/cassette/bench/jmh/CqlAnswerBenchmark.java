package io.cassette.bench.jmh;

import io.cassette.cql.ColumnSpec;
import io.cassette.cql.CqlType;
import io.cassette.cql.Result;
import io.cassette.cql.ValueRow;
import io.cassette.cql.transport.frame.Envelope;
import io.cassette.cql.transport.frame.FrameEncoder;
import io.cassette.cql.transport.messages.Opcode;
import io.cassette.cql.transport.messages.ResultEncoder;
import io.cassette.metrics.LatencyMonitor;
import io.cassette.metrics.NodeMetrics;
import io.cassette.metrics.RequestMetrics;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the CQL door does per answer outside storage and execution: {@code answerRead} encodes a
 * stress SELECT's row (five 34-byte blobs, no metadata) and frames it as a v5 self-contained
 * segment through {@link FrameEncoder} (an embedded channel stands for the socket: its outbound
 * buffer is read and released); {@code recordLatency} records one request's latency in the CQL
 * door's metrics. Each call does {@link #OPS} operations, so that {@link InterleavedAb} can
 * compare two revisions' jars in one JVM.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx128m", "-Xms128m"})
public class CqlAnswerBenchmark {
  public static final int OPS = 10_000;

  private final List<byte[]> selected = new ArrayList<>();
  private final List<ColumnSpec> columns = new ArrayList<>();
  private final PooledByteBufAllocator alloc = PooledByteBufAllocator.DEFAULT;
  private EmbeddedChannel channel;
  private RequestMetrics metrics;
  private long sink;

  @Setup
  public void setUp() {
    for (int i = 0; i < 5; i++) {
      selected.add(new byte[34]);
      columns.add(new ColumnSpec("keyspace1", "standard1", "C" + i, new CqlType.NativeType(CqlType.Native.BLOB)));
    }
    FrameEncoder encoder = new FrameEncoder();
    encoder.switchToSegments(false);
    channel = new EmbeddedChannel(encoder);
    metrics = new NodeMetrics(new LatencyMonitor(100, System::currentTimeMillis)).requests("cql");
  }

  @Benchmark
  @OperationsPerInvocation(OPS)
  public long answerRead() {
    long n = 0;
    for (int i = 0; i < OPS; i++) {
      List<List<ByteBuffer>> rows = new ArrayList<>(1);
      rows.add(new ValueRow(new ArrayList<>(selected)));
      ByteBuf body = ResultEncoder.encode(alloc, new Result.Rows(columns, rows, null), 5, true, null, null);
      channel.writeOutbound(new Envelope(5, 0, i & 0x7fff, Opcode.RESULT, body));
      ByteBuf out = channel.readOutbound();
      n += out.readableBytes();
      out.release();
    }
    sink += n;
    return n;
  }

  @Benchmark
  @OperationsPerInvocation(OPS)
  public long recordLatency() {
    for (int i = 0; i < OPS; i++) {
      metrics.record("EXECUTE", 50 + (i & 1023));
    }
    return metrics.latency().count();
  }
}
