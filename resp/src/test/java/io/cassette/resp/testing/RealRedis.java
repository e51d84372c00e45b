package io.cassette.resp.testing;

import java.io.File;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A throwaway real Redis 7 (Debian's redis-server) on a free loopback port, for differential
 * tests; {@link #available()} is false when it is not installed (tests then skip).
 */
public final class RealRedis implements AutoCloseable {
  private static final String BINARY = "/usr/bin/redis-server";
  private final Process process;
  public final InetSocketAddress address;

  public static boolean available() {
    return new File(BINARY).canExecute();
  }

  public RealRedis(Path dir) throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    Files.createDirectories(dir);
    process = new ProcessBuilder(List.of(BINARY, "--port", Integer.toString(port), "--bind",
        "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir.toString(),
        "--protected-mode", "yes"))
        .redirectErrorStream(true).redirectOutput(dir.resolve("redis.log").toFile()).start();
    address = new InetSocketAddress("127.0.0.1", port);
    long deadline = System.currentTimeMillis() + 5000;
    while (true) {
      try (RawClient c = new RawClient(address)) {
        c.command("PING");
        if (c.reply().equals("+PONG\r\n")) {
          return;
        }
      } catch (Exception e) {
        if (System.currentTimeMillis() > deadline) {
          process.destroyForcibly();
          throw new IllegalStateException("redis-server did not start on " + port, e);
        }
        Thread.sleep(50);
      }
    }
  }

  @Override
  public void close() throws Exception {
    process.destroy();
    process.waitFor();
  }
}
