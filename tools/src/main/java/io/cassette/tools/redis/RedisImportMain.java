package io.cassette.tools.redis;

import io.cassette.resp.rdb.DumpPayload;
import io.cassette.resp.rdb.RdbFileReader;
import io.cassette.resp.rdb.RedisValue;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * {@code cassette redis-import FILE}: loads an RDB file written by Redis (7.0 and earlier,
 * also 7.2's RDB 11 except its new types) into a running node, over RESP: each key becomes
 * {@code RESTORE key expiry payload ABSTTL [REPLACE]} after a {@code SELECT} of its database,
 * pipelined. The file is read as a stream, one key at a time, and its CRC-64 checked at the
 * end. Works against Redis too.
 */
public final class RedisImportMain {
  static final String USAGE = """
      usage: cassette redis-import FILE [options]

        Loads the keys of a Redis RDB file (Redis 7.0: RDB version 10, and earlier versions)
        into a running Cassette node (or any Redis-compatible server) with RESTORE, keeping
        each key's database and expiry. Strings, lists, sets, hashes and sorted sets in all
        their encodings; streams and module values are refused with the key's name.

      options:
      """ + RedisTarget.OPTIONS + """
        --replace          overwrite keys that exist (default: such keys are reported and kept)
        --pipeline N       commands in flight (default 256)

      Keys already expired are skipped. The file's checksum is checked when it ends: an error
      there means the keys before it were loaded from a damaged file.
      exit status: 0 all keys loaded; 1 some key or the file failed; 2 bad command line.
      """;

  private RedisImportMain() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  public static int run(String[] argv, PrintStream out, PrintStream err) {
    List<String> args = new ArrayList<>(Arrays.asList(argv));
    if (args.contains("--help") || args.contains("help")) {
      out.print(USAGE);
      return 0;
    }
    RedisTarget target;
    boolean replace = args.remove("--replace");
    int pipeline;
    Path file;
    try {
      target = RedisTarget.parse(args);
      pipeline = Math.max(1, ToolArgs.takeInt(args, "--pipeline", 256));
      file = Path.of(ToolArgs.onlyFile(args));
    } catch (IllegalArgumentException e) {
      err.println("redis-import: " + e.getMessage());
      err.print(USAGE);
      return 2;
    }
    long started = System.nanoTime();
    try (RespClient client = target.connect();
         InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
      Importer imp = new Importer(client, replace, pipeline, err);
      int version = RdbFileReader.read(in, imp);
      imp.drain();
      double s = (System.nanoTime() - started) / 1e9;
      out.printf(Locale.ROOT, "imported %,d keys from %s (RDB version %d) in %.1f s (%,.0f keys/s); "
              + "%,d expired skipped, %,d failed%n", imp.loaded, file, version, s, imp.loaded / Math.max(s, 1e-3),
          imp.expired, imp.failed);
      return imp.failed == 0 ? 0 : 1;
    } catch (IOException | RuntimeException e) {
      err.println("redis-import: " + file + ": " + e.getMessage());
      return 1;
    }
  }

  /** Sends each key as it is read; reads the replies a pipeline at a time. */
  private static final class Importer implements RdbFileReader.Visitor {
    private final RespClient client;
    private final boolean replace;
    private final int pipeline;
    private final PrintStream err;
    private final List<byte[]> pendingKeys = new ArrayList<>();
    private int db = -1;
    long loaded;
    long expired;
    long failed;

    Importer(RespClient client, boolean replace, int pipeline, PrintStream err) {
      this.client = client;
      this.replace = replace;
      this.pipeline = pipeline;
      this.err = err;
    }

    @Override
    public void entry(int entryDb, byte[] key, RedisValue value, long expireAtMs) throws IOException {
      if (expireAtMs != 0 && expireAtMs <= System.currentTimeMillis()) {
        expired++;
        return;
      }
      if (value.size() == 0) {
        return; // Redis skips empty keys too
      }
      if (entryDb != db) {
        client.send("SELECT", Integer.toString(entryDb));
        pendingKeys.add(null);
        db = entryDb;
      }
      byte[] payload = DumpPayload.encode(value);
      if (replace) {
        client.send("RESTORE", key, Long.toString(expireAtMs), payload, "ABSTTL", "REPLACE");
      } else {
        client.send("RESTORE", key, Long.toString(expireAtMs), payload, "ABSTTL");
      }
      pendingKeys.add(key);
      if (pendingKeys.size() >= pipeline) {
        drain();
      }
    }

    void drain() throws IOException {
      client.flush();
      for (byte[] key : pendingKeys) {
        Object r = client.read();
        if (key == null) {
          if (r instanceof RespClient.Error e) {
            throw new IOException("SELECT " + db + " refused: " + e.message());
          }
        } else if (r instanceof RespClient.Error e) {
          if (failed++ < 10) {
            err.println("redis-import: key '" + new String(key, StandardCharsets.UTF_8) + "': " + e.message());
          }
        } else {
          loaded++;
        }
      }
      pendingKeys.clear();
    }
  }
}
