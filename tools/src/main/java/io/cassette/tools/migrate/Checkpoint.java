package io.cassette.tools.migrate;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The file of finished token ranges that makes a migration resumable. Text, one line each,
 * appended and fsynced as each range finishes (a crash loses at most the ranges in flight,
 * which are copied again; plain writes are idempotent):
 *
 * <pre>
 *   # cassette migrate checkpoint v1 ranges=N
 *   done KEYSPACE.TABLE RANGE_INDEX ROWS CHECKSUM
 * </pre>
 *
 * A file written with another range count is refused (its indexes name other ranges).
 * Thread-safe.
 */
final class Checkpoint implements AutoCloseable {
  private static final String HEADER = "# cassette migrate checkpoint v1 ranges=";
  private final Path file;
  private final Set<String> done = new HashSet<>();
  private final FileChannel out;

  private Checkpoint(Path file, FileChannel out) {
    this.file = file;
    this.out = out;
  }

  /** Opens (or starts) the checkpoint {@code file} for {@code ranges} ranges; null: none kept. */
  static Checkpoint open(Path file, int ranges) throws IOException {
    if (file == null) {
      return new Checkpoint(null, null);
    }
    boolean fresh = !Files.exists(file) || Files.size(file) == 0;
    Checkpoint c;
    if (!fresh) {
      String text = Files.readString(file, StandardCharsets.UTF_8);
      List<String> lines = List.of(text.split("\n", -1));
      if (!lines.get(0).startsWith(HEADER)) {
        throw new IOException(file + ": not a cassette migrate checkpoint (first line: '" + lines.get(0) + "')");
      }
      int written = Integer.parseInt(lines.get(0).substring(HEADER.length()).trim());
      if (written != ranges) {
        throw new IOException(file + " was written with --ranges " + written + ", not " + ranges
            + ": run with --ranges " + written + " or remove the file to start over");
      }
      c = new Checkpoint(file, FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND));
      // the last element follows the last newline: a line torn by a crash, or empty
      for (String line : lines.subList(1, lines.size() - 1)) {
        String[] f = line.trim().split(" ");
        if (f.length == 5 && f[0].equals("done")) {
          c.done.add(f[1] + " " + f[2]);
        }
      }
      if (!text.endsWith("\n")) {
        c.append("\n"); // the torn line ends here; later lines start clean
      }
    } else {
      c = new Checkpoint(file, FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
          StandardOpenOption.APPEND));
      c.append(HEADER + ranges + "\n");
    }
    return c;
  }

  boolean isDone(String table, int range) {
    synchronized (done) {
      return done.contains(table + " " + range);
    }
  }

  int doneCount() {
    synchronized (done) {
      return done.size();
    }
  }

  void finished(String table, int range, long rows, long checksum) throws IOException {
    synchronized (done) {
      done.add(table + " " + range);
    }
    if (out != null) {
      append("done " + table + " " + range + " " + rows + " " + Long.toHexString(checksum) + "\n");
    }
  }

  private synchronized void append(String line) throws IOException {
    out.write(java.nio.ByteBuffer.wrap(line.getBytes(StandardCharsets.UTF_8)));
    out.force(false);
  }

  Path file() {
    return file;
  }

  @Override
  public void close() throws IOException {
    if (out != null) {
      out.close();
    }
  }
}
