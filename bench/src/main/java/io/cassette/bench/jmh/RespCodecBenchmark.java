package io.cassette.bench.jmh;

import io.cassette.resp.command.CommandSpec;
import io.cassette.resp.command.CommandTable;
import io.cassette.resp.protocol.Reply;
import io.cassette.resp.protocol.Request;
import io.cassette.resp.protocol.RequestBudget;
import io.cassette.resp.protocol.RespDecoder;
import io.cassette.resp.protocol.RespLimits;
import io.cassette.resp.server.CommandNames;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The Redis door's codec, per request: {@code decodeSetPipeline} feeds the connection's
 * {@link RespDecoder} (in a Netty channel, as the server runs it, with the node's request
 * budget) the bytes redis-benchmark sends for {@code SET key:NNNNNNNNNNNN xxx -P 16} and takes
 * the 16 requests out; {@code decodeGet} one unpipelined GET. {@code encodeReplies} writes
 * what those loads answer (+OK, a 3-byte bulk, an integer past the cached ones, a null) with
 * {@link Reply} into a pooled buffer reused across invocations. {@code lookupByString} finds a
 * command's spec as the dispatcher did before (a lower-case String of the name, then the
 * table's HashMap), {@code lookupByBytes} as it does now ({@link CommandNames}, no allocation),
 * for "SET" and "get". Figures are per request.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xbatch", "-Xmx128m"})
public class RespCodecBenchmark {
  private static final int PIPELINE = 16;
  private static final RespLimits LIMITS = RespLimits.forHeap(128L << 20);

  private EmbeddedChannel channel;
  private RequestBudget budget;
  private ByteBuf setPipeline;
  private ByteBuf get;
  private ByteBuf out;
  private final Reply reply = new Reply();
  private final byte[] value = "xxx".getBytes(StandardCharsets.US_ASCII);
  private final CommandTable table = CommandTable.standard();
  private final CommandNames names = new CommandNames(table);
  private final byte[][] commandNames = {
      "SET".getBytes(StandardCharsets.US_ASCII), "get".getBytes(StandardCharsets.US_ASCII)};

  @Setup
  public void setUp() {
    budget = new RequestBudget(32L << 20);
    channel = new EmbeddedChannel(new RespDecoder(() -> LIMITS, budget, true));
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < PIPELINE; i++) {
      s.append(command("SET", String.format("key:%012d", 4711 * i), "xxx"));
    }
    setPipeline = Unpooled.directBuffer().writeBytes(s.toString().getBytes(StandardCharsets.US_ASCII));
    get = Unpooled.directBuffer().writeBytes(
        command("GET", "key:000000004711").getBytes(StandardCharsets.US_ASCII));
    out = PooledByteBufAllocator.DEFAULT.directBuffer(4096);
    reply.target(out);
  }

  @TearDown
  public void tearDown() {
    channel.finishAndReleaseAll();
    out.release();
  }

  private static String command(String... args) {
    StringBuilder s = new StringBuilder("*").append(args.length).append("\r\n");
    for (String a : args) {
      s.append('$').append(a.length()).append("\r\n").append(a).append("\r\n");
    }
    return s.toString();
  }

  private int drain() {
    int n = 0;
    Object m;
    while ((m = channel.readInbound()) != null) {
      Request r = (Request) m;
      budget.release(r.budgetBytes()); // as the dispatcher does after running it
      n += r.size();
    }
    return n;
  }

  @Benchmark
  @OperationsPerInvocation(PIPELINE)
  public int decodeSetPipeline() {
    channel.writeInbound(setPipeline.retainedDuplicate());
    return drain();
  }

  @Benchmark
  public int decodeGet() {
    channel.writeInbound(get.retainedDuplicate());
    return drain();
  }

  @Benchmark
  @OperationsPerInvocation(4)
  public int encodeReplies() {
    out.clear();
    reply.ok();
    reply.bulk(value);
    reply.integer(100_001);
    reply.nullBulk();
    return out.writerIndex();
  }

  @Benchmark
  @OperationsPerInvocation(2)
  public int lookupByString() {
    int n = 0;
    for (byte[] name : commandNames) {
      CommandSpec spec = table.get(lower(name));
      n += spec.arity();
    }
    return n;
  }

  @Benchmark
  @OperationsPerInvocation(2)
  public int lookupByBytes() {
    int n = 0;
    for (byte[] name : commandNames) {
      n += names.get(name).arity();
    }
    return n;
  }

  /** The dispatcher's lower-casing before CommandNames (kept here to compare against). */
  private static String lower(byte[] name) {
    char[] c = new char[name.length];
    for (int i = 0; i < name.length; i++) {
      int b = name[i] & 0xFF;
      c[i] = (char) (b >= 'A' && b <= 'Z' ? b + 32 : b);
    }
    return new String(c);
  }
}
