package io.cassette.server.admin;

import io.cassette.storage.io.FileTree;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Finds, sizes and removes the snapshots that {@code Table.snapshot(tag)} leaves on disk. The
 * engine hard-links a table's SSTables under {@code <table dir>/snapshots/<tag>/}; the table
 * directory is {@code <data dir>/<keyspace>/<table>[-<id hex>]}, as in Cassandra:
 *
 * <pre>
 *   data/ks/t-0f1e.../snapshots/before-upgrade/nb-1-big-Data.db   (hard link)
 *   data/ks/t-0f1e.../nb-1-big-Data.db                            (live)
 * </pre>
 *
 * A snapshot's "true size" is what deleting it frees: its files whose live twin is gone.
 * Thread-safety: stateless; concurrent clears of the same tag may race harmlessly.
 */
final class SnapshotDirectory {
  /** The per-table folder holding snapshots, as Cassandra names it. */
  static final String SNAPSHOTS = "snapshots";
  /** Deep enough for data/ks/table/snapshots/tag; bounds the walk over a large data dir. */
  private static final int MAX_DEPTH = 6;
  private static final Pattern TABLE_ID_SUFFIX = Pattern.compile("-[0-9a-fA-F]{32}$");

  /** One snapshot of one table. */
  record Snapshot(String tag, String keyspace, String table, Path directory, long trueSizeBytes,
                  long sizeOnDiskBytes, long createdMillis) {}

  private final Path dataDirectory;

  SnapshotDirectory(Path dataDirectory) {
    this.dataDirectory = dataDirectory;
  }

  /** Every snapshot under the data directory, by tag, keyspace and table. */
  List<Snapshot> list() {
    List<Snapshot> found = new ArrayList<>();
    if (!Files.isDirectory(dataDirectory)) {
      return found;
    }
    try (Stream<Path> dirs = Files.find(dataDirectory, MAX_DEPTH,
        (p, a) -> a.isDirectory() && p.getFileName() != null
            && p.getFileName().toString().equals(SNAPSHOTS))) {
      for (Path snapshots : (Iterable<Path>) dirs::iterator) {
        Path tableDir = snapshots.getParent();
        String table = TABLE_ID_SUFFIX.matcher(tableDir.getFileName().toString()).replaceFirst("");
        Path ksDir = tableDir.getParent();
        String keyspace = ksDir == null || ksDir.equals(dataDirectory.getParent())
            ? "" : ksDir.getFileName().toString();
        try (Stream<Path> tags = Files.list(snapshots)) {
          for (Path tagDir : (Iterable<Path>) tags::iterator) {
            if (Files.isDirectory(tagDir)) {
              found.add(measure(tagDir, tableDir, keyspace, table));
            }
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list snapshots under " + dataDirectory + ": "
          + e.getMessage(), e);
    }
    found.sort(Comparator.comparing(Snapshot::tag).thenComparing(Snapshot::keyspace)
        .thenComparing(Snapshot::table));
    return found;
  }

  /**
   * Deletes the snapshots with {@code tag} (every tag when null) of {@code keyspace} (every
   * keyspace when null).
   *
   * @return how many table snapshots were removed
   */
  int clear(String tag, String keyspace) {
    int removed = 0;
    for (Snapshot s : list()) {
      if ((tag == null || s.tag().equals(tag)) && (keyspace == null || s.keyspace().equals(keyspace))) {
        deleteTree(s.directory());
        removed++;
      }
    }
    return removed;
  }

  private static Snapshot measure(Path tagDir, Path tableDir, String keyspace, String table)
      throws IOException {
    long[] sizes = new long[2]; // true size, size on disk
    Files.walkFileTree(tagDir, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
        sizes[1] += attrs.size();
        if (!Files.exists(tableDir.resolve(tagDir.relativize(file).toString()))) {
          sizes[0] += attrs.size();
        }
        return FileVisitResult.CONTINUE;
      }
    });
    long created = Files.getLastModifiedTime(tagDir).toMillis();
    return new Snapshot(tagDir.getFileName().toString(), keyspace, table, tagDir, sizes[0], sizes[1],
        created);
  }

  private static void deleteTree(Path dir) {
    try {
      FileTree.delete(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot delete snapshot " + dir + ": " + e.getMessage(), e);
    }
  }
}
