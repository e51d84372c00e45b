package io.cassette.cql.transport;

import io.cassette.cql.language.CqlLanguage;
import io.cassette.cql.language.NodeInfo;
import io.cassette.storage.CommitLogSync;
import io.cassette.storage.Engine;
import io.cassette.storage.EngineOptions;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

/**
 * A CQL node in its own JVM, sized from its heap as {@code bin/cassette start} sizes one
 * (memtables a quarter of the heap, CQL limits from {@link CqlLimits#forHeap}), for tests that
 * must see a small heap survive or die. Prints {@code PORT=n} once serving.
 *
 * <p>Usage: {@code java -Xmx64m -cp ... SmallHeapNode DATA_DIR}
 */
public final class SmallHeapNode {
  private SmallHeapNode() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    long heap = Runtime.getRuntime().maxMemory();
    Engine engine = Engine.open(new EngineOptions(dir.resolve("data"), dir.resolve("commitlog"),
        CommitLogSync.PERIODIC, Duration.ofSeconds(10), 32L << 20, Math.min(16L << 20, heap / 16), heap / 4,
        64L << 20, 1));
    NodeInfo node = NodeInfo.singleNode("Test Cluster", InetAddress.getLoopbackAddress(), 9042,
        UUID.fromString("11111111-2222-3333-4444-555555555555"), List.of(-9000L, 0L, 9000L));
    CqlServer server = new CqlServer(CqlServerOptions.defaults("127.0.0.1", 0), new CqlLanguage(
        io.cassette.coordinator.local.LocalCoordinator.open(engine, null), node));
    InetSocketAddress a = server.start();
    System.out.println("PORT=" + a.getPort());
    System.out.flush();
    Thread.currentThread().join();
  }
}
