package io.cassette.server;

import io.cassette.server.config.Config;
import io.cassette.server.config.ConfigException;
import io.cassette.server.config.ConfigKeys;
import io.cassette.server.config.ConfigLoader;
import io.cassette.server.config.ConfigLoader.FlagValue;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code cassette start} and {@code cassette version}; bin/cassette dispatches here. */
@Command(name = "cassette", mixinStandardHelpOptions = true, versionProvider = Main.VersionProvider.class,
    description = "A Cassandra- and Redis-compatible database for small machines.",
    subcommands = {Main.Start.class, Main.PrintVersion.class})
public final class Main {

  public static void main(String[] args) {
    sizeDirectMemoryForABoard();
    Logging.installManager();
    CommandLine cl = new CommandLine(new Main());
    cl.setCaseInsensitiveEnumValuesAllowed(true);
    int code = cl.execute(args);
    System.exit(code);
  }

  /**
   * Netty's pooled allocator and the JDK's NIO read these once, when their classes load, so
   * they are set here before anything touches Netty; a value the user set (-D) wins. With the
   * defaults a 64 MiB node's direct memory went to 4 MiB pooled chunks, each pinned by a few
   * small long-lived buffers, and to the JDK's per-thread cache of temporary direct buffers
   * (issue 13, 100 slow CQL readers). 1 MiB chunks (maxOrder 7 of 8 KiB pages) waste at most
   * a quarter as much; larger buffers are allocated unpooled and freed when released.
   */
  static void sizeDirectMemoryForABoard() {
    setUnlessSet("io.netty.allocator.maxOrder", "7");
    setUnlessSet("jdk.nio.maxCachedBufferSize", String.valueOf(256 * 1024));
  }

  private static void setUnlessSet(String key, String value) {
    if (System.getProperty(key) == null) {
      System.setProperty(key, value);
    }
  }

  static final class VersionProvider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"Cassette " + Version.get()};
    }
  }

  @Command(name = "version", description = "Print the version and exit.")
  static final class PrintVersion implements Callable<Integer> {
    @Override
    public Integer call() {
      System.out.println("Cassette " + Version.get() + " (Java " + Runtime.version() + ", "
          + System.getProperty("os.name") + " " + System.getProperty("os.arch") + ")");
      return 0;
    }
  }

  @Command(name = "start", description = "Run a node in the foreground until SIGTERM or Ctrl-C.")
  static final class Start implements Callable<Integer> {
    @Option(names = "--data-dir", paramLabel = "DIR", description = "Data directory (default ./data).")
    String dataDir;
    @Option(names = "--listen", paramLabel = "ADDR", description = "Address all front doors listen on (default 127.0.0.1).")
    String listen;
    @Option(names = "--cql-port", paramLabel = "PORT", description = "CQL native protocol port (default 9042; 0 disables).")
    String cqlPort;
    @Option(names = "--resp-port", paramLabel = "PORT", description = "Redis protocol port (default 6379; 0 disables).")
    String respPort;
    @Option(names = "--http-port", paramLabel = "PORT", description = "Admin HTTP port (default 9180; 0 disables).")
    String httpPort;
    @Option(names = "--seeds", paramLabel = "HOST[,HOST...]", description = "Seeds of the ring to join (seed_provider); none: a single node.")
    String seeds;
    @Option(names = "--storage-port", paramLabel = "PORT", description = "Internode messaging port (storage_port, default 7000).")
    String storagePort;
    @Option(names = "--config", paramLabel = "FILE", description = "Configuration file (default conf/cassette.yaml).")
    Path configFile;
    @Option(names = "--heap", paramLabel = "SIZE", description = "Heap size, e.g. 128m; applied by bin/cassette as -Xmx.")
    String heap;
    @Option(names = {"-s", "--set"}, paramLabel = "KEY=VALUE", description = "Set any configuration key.")
    Map<String, String> settings = new LinkedHashMap<>();

    @Override
    public Integer call() throws Exception {
      Logging.toConsole();
      Logger log = LoggerFactory.getLogger(Main.class);
      long startNanos = System.nanoTime();
      Config config;
      ResourceSizing sizing;
      try {
        config = ConfigLoader.load(configFile(), System.getenv(), flags());
        sizing = ResourceSizing.forThisJvm(
            config.isSet(ConfigKeys.MEMTABLE_HEAP_SPACE) ? config.bytes(ConfigKeys.MEMTABLE_HEAP_SPACE) : null,
            config.isSet(ConfigKeys.CONCURRENT_COMPACTORS) ? config.integer(ConfigKeys.CONCURRENT_COMPACTORS) : null);
      } catch (ConfigException | IllegalArgumentException e) {
        System.err.println("Error: " + e.getMessage());
        return 1;
      }
      try {
        Logging.toConsoleAndFiles(config.logDirectory());
      } catch (java.io.IOException e) {
        System.err.println("Error: cannot write logs under " + config.logDirectory().toAbsolutePath()
            + " (data_directory from " + config.source(ConfigKeys.DATA_DIRECTORY) + "): " + e);
        return 1;
      }
      log.info("Cassette {} starting (Java {}, {} {}), data in {}", Version.get(), Runtime.version(),
          System.getProperty("os.name"), System.getProperty("os.arch"),
          config.dataDirectory().toAbsolutePath().normalize());
      config.warnings().forEach(w -> log.warn("{}", w));
      log.info("{}, gc {}", sizing.summary(), collector());

      Path conf = configFile();
      CassetteNode node = new CassetteNode(config, sizing,
          conf != null && conf.toAbsolutePath().getParent() != null ? conf.toAbsolutePath().getParent() : null);
      CountDownLatch stopped = new CountDownLatch(1);
      java.util.concurrent.atomic.AtomicBoolean ready = new java.util.concurrent.atomic.AtomicBoolean();
      Thread hook = new Thread(() -> {
        log.info("Shutting down");
        node.close();
        log.info("Shutdown complete");
        if (ready.get()) {
          // After the data is safe: a kill during the dump loses only the archive.
          ClassArchive.makeIfRequested();
        }
        Logging.closed();
        stopped.countDown();
      }, "cassette-shutdown");
      Runtime.getRuntime().addShutdownHook(hook);
      try {
        node.start();
      } catch (CassetteNode.StartException | io.cassette.storage.StorageException e) {
        log.error("{}", e.getMessage());
        if (e.getCause() != null && !(e.getCause() instanceof java.net.BindException)) {
          log.error("What failed:", e.getCause()); // not a busy port: the trace is for the bug report
        }
        return 1;
      } catch (java.net.UnknownHostException e) {
        log.error("Invalid listen_address '{}' (from {}): not an address of this machine",
            config.string(ConfigKeys.LISTEN_ADDRESS), config.source(ConfigKeys.LISTEN_ADDRESS));
        return 1;
      }
      long ms = (System.nanoTime() - startNanos) / 1_000_000;
      log.info("Cassette {} ready in {} ms: {}", Version.get(), ms, node.listeningSummary());
      ready.set(true);
      stopped.await();
      return 0;
    }

    private Path configFile() {
      if (configFile != null) {
        if (!Files.isRegularFile(configFile)) {
          throw new ConfigException("Configuration file " + configFile + " (from --config) does not exist");
        }
        return configFile;
      }
      String fromEnv = System.getenv("CASSETTE_CONF");
      if (fromEnv != null && !fromEnv.isEmpty()) {
        return Path.of(fromEnv);
      }
      String home = System.getProperty("cassette.home");
      if (home != null) {
        Path bundled = Path.of(home, "conf", "cassette.yaml");
        if (Files.isRegularFile(bundled)) {
          return bundled;
        }
      }
      return null;
    }

    private Map<String, FlagValue> flags() {
      Map<String, FlagValue> flags = new LinkedHashMap<>();
      settings.forEach((k, v) -> flags.put(k, new FlagValue(v, "flag --set " + k)));
      put(flags, ConfigKeys.DATA_DIRECTORY, dataDir, "--data-dir");
      put(flags, ConfigKeys.LISTEN_ADDRESS, listen, "--listen");
      put(flags, ConfigKeys.NATIVE_TRANSPORT_PORT, cqlPort, "--cql-port");
      put(flags, ConfigKeys.RESP_PORT, respPort, "--resp-port");
      put(flags, ConfigKeys.HTTP_PORT, httpPort, "--http-port");
      put(flags, ConfigKeys.SEED_PROVIDER, seeds, "--seeds");
      put(flags, ConfigKeys.STORAGE_PORT, storagePort, "--storage-port");
      return flags;
    }

    private static void put(Map<String, FlagValue> flags, String key, String value, String flag) {
      if (value != null) {
        flags.put(key, new FlagValue(value, "flag " + flag));
      }
    }
  }

  /** The collector the JVM runs (bin/cassette picks it from the heap), as the start line names it. */
  static String collector() {
    List<String> names = java.lang.management.ManagementFactory.getGarbageCollectorMXBeans().stream()
        .map(java.lang.management.GarbageCollectorMXBean::getName).toList();
    if (names.contains("Copy") || names.contains("MarkSweepCompact")) {
      return "serial";
    }
    if (names.contains("PS Scavenge")) {
      return "parallel";
    }
    if (names.stream().anyMatch(n -> n.startsWith("G1 "))) {
      return "G1";
    }
    return names.isEmpty() ? "?" : names.get(0).replaceAll(" (Cycles|Pauses)$", "");
  }
}
