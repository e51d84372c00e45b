package io.cassette.tools.redis;

import io.cassette.resp.rdb.RdbFileWriter;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * {@code cassette redis-export FILE}: writes a running node's Redis data as an RDB file
 * (version 10) that Redis 7.0 loads: for each database, SCAN for the keys, then DUMP and
 * PEXPIRETIME of each (pipelined); the DUMP payloads go into the file as they are. Written
 * to FILE.tmp, fsynced, then renamed. Works against Redis too. The export is not a
 * snapshot: keys written meanwhile may or may not be in it.
 */
public final class RedisExportMain {
  static final String USAGE = """
      usage: cassette redis-export FILE [options]

        Writes every key of a running Cassette node (or any Redis-compatible server with DUMP)
        into FILE as an RDB file Redis 7.0 loads (copy it to Redis's dir as dump.rdb, or use
        redis-check-rdb). Keys keep their database and expiry.

      options:
      """ + RedisTarget.OPTIONS + """
        --db N             only database N (default: all, 0..15)
        --count N          SCAN COUNT hint and keys per pipeline (default 500)

      exit status: 0 written; 1 failed (no FILE is left behind); 2 bad command line.
      """;

  private RedisExportMain() {}

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
    int onlyDb;
    int count;
    Path file;
    try {
      target = RedisTarget.parse(args);
      onlyDb = ToolArgs.takeInt(args, "--db", -1);
      count = Math.max(1, ToolArgs.takeInt(args, "--count", 500));
      file = Path.of(ToolArgs.onlyFile(args)).toAbsolutePath();
    } catch (IllegalArgumentException e) {
      err.println("redis-export: " + e.getMessage());
      err.print(USAGE);
      return 2;
    }
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    long started = System.nanoTime();
    long keys = 0;
    List<Integer> dbs = new ArrayList<>();
    try (RespClient client = target.connect()) {
      try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
          StandardOpenOption.TRUNCATE_EXISTING);
           OutputStream os = new BufferedOutputStream(java.nio.channels.Channels.newOutputStream(ch), 1 << 16)) {
        RdbFileWriter w = new RdbFileWriter(os);
        for (int db = onlyDb < 0 ? 0 : onlyDb; db <= (onlyDb < 0 ? 15 : onlyDb); db++) {
          Object sel = client.call("SELECT", Integer.toString(db));
          if (sel instanceof RespClient.Error e) {
            if (onlyDb >= 0) {
              throw new IOException("SELECT " + db + ": " + e.message());
            }
            break; // a server with fewer databases
          }
          Object size = client.call("DBSIZE");
          if (!(size instanceof Long n) || n == 0) {
            continue;
          }
          w.startDb(db, n, 0);
          dbs.add(db);
          keys += exportDb(client, w, count);
        }
        w.finish();
        os.flush();
        ch.force(true);
      }
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      double s = (System.nanoTime() - started) / 1e9;
      out.printf(Locale.ROOT, "exported %,d keys of databases %s to %s in %.1f s (%,.0f keys/s)%n",
          keys, dbs, file, s, keys / Math.max(s, 1e-3));
      return 0;
    } catch (IOException | RuntimeException e) {
      err.println("redis-export: " + e.getMessage());
      try {
        Files.deleteIfExists(tmp);
      } catch (IOException ignored) {
        // the message above matters more
      }
      return 1;
    }
  }

  private static long exportDb(RespClient client, RdbFileWriter w, int count) throws IOException {
    long written = 0;
    String cursor = "0";
    do {
      Object r = client.call("SCAN", cursor, "COUNT", Integer.toString(count));
      if (r instanceof RespClient.Error e) {
        throw new IOException("SCAN: " + e.message());
      }
      List<?> reply = (List<?>) r;
      cursor = new String((byte[]) reply.get(0), java.nio.charset.StandardCharsets.US_ASCII);
      List<?> batch = (List<?>) reply.get(1);
      for (Object k : batch) {
        client.send("DUMP", k);
        client.send("PEXPIRETIME", k);
      }
      client.flush();
      for (Object k : batch) {
        Object payload = client.read();
        Object expire = client.read();
        if (payload instanceof RespClient.Error e) {
          throw new IOException("DUMP: " + e.message());
        }
        if (payload == null) {
          continue; // deleted or expired since SCAN saw it
        }
        long at = expire instanceof Long x && x > 0 ? x : 0;
        w.entryFromDump((byte[]) k, (byte[]) payload, at);
        written++;
      }
    } while (!cursor.equals("0"));
    return written;
  }
}
