package io.cassette.resp;

import io.cassette.storage.Engine;
import io.cassette.storage.EngineOptions;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Runs the Redis front door alone for manual tests and redis-benchmark:
 * {@code RespMain [port] [dataDir]}. Uses the real engine in dataDir (a temp
 * directory when omitted).
 */
public final class RespMain {
  private RespMain() {}

  public static void main(String[] args) throws Exception {
    int port = args.length > 0 ? Integer.parseInt(args[0]) : 6379;
    Path dir = args.length > 1 && !args[1].startsWith("--") ? Path.of(args[1])
        : Files.createTempDirectory("cassette-resp");
    EngineOptions d = EngineOptions.defaults(dir);
    // appendfsync everysec: fsync the commit log every second, acknowledge at once
    Engine engine = Engine.open(new EngineOptions(d.dataDirectory(), d.commitLogDirectory(),
        io.cassette.storage.CommitLogSync.PERIODIC, java.time.Duration.ofSeconds(1),
        d.commitLogSegmentBytes(), d.commitLogBacklogBytes(), d.memtableBudgetBytes(),
        d.compactionThroughputBytesPerSecond(), d.compactionThreads()));
    RespServer server = new RespServer(RespServerOptions.defaults().withPort(port), io.cassette.coordinator.local.LocalCoordinator.open(engine, null));
    Engine e = engine;
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      server.close();
      e.close();
    }));
    System.out.println("cassette-resp listening on " + server.start() + " data " + dir);
    System.out.flush();
    Thread.currentThread().join();
  }
}
