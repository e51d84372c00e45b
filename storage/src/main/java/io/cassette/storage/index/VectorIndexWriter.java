package io.cassette.storage.index;

import io.cassette.storage.Cell;
import io.cassette.storage.DecoratedKey;
import io.cassette.storage.Row;
import io.cassette.storage.StorageException;
import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes the vectors component of one SSTable for one index (format in {@link IndexComponent}):
 * rows stream to the file, vectors to a side file, appended at the end. The component has no
 * graph (maxDegree 0): building one costs minutes of CPU for 100k vectors on a board, so it is
 * not done on the flush or compaction thread but later by {@link VectorGraphBuilds}, and until
 * then a search scores every vector of the segment. Not thread-safe.
 */
final class VectorIndexWriter implements SegmentWriter {
  private final IndexDefinition def;
  private final RowTableWriter rows;
  private final Path sideFile;
  private final DataOutputStream side;

  VectorIndexWriter(IndexDefinition def, IndexOutput out, Path sideFile) {
    this.def = def;
    this.rows = new RowTableWriter(out, IndexComponent.KIND_VECTORS);
    this.sideFile = sideFile;
    try {
      this.side = new DataOutputStream(new BufferedOutputStream(new FileOutputStream(sideFile.toFile()), 64 * 1024));
    } catch (IOException e) {
      throw new StorageException("cannot write " + sideFile + ": " + e, e);
    }
  }

  @Override
  public void row(DecoratedKey partition, Row row) {
    for (Cell c : row.cells()) {
      if (c.isTombstone() || !c.column().equals(def.column())) {
        continue;
      }
      byte[][] one = new byte[1][];
      def.extractor().terms(c, t -> one[0] = t);
      if (one[0] == null || one[0].length != def.dimensions() * 4) {
        continue;
      }
      rows.add(new PrimaryKey(partition, row.clustering()));
      try {
        side.write(one[0]);
      } catch (IOException e) {
        throw new StorageException("cannot write " + sideFile + ": " + e, e);
      }
    }
  }

  @Override
  public void finish() {
    int dims = def.dimensions();
    try {
      side.close();
      rows.endRows();
      IndexOutput out = rows.out;
      long bodyAt = out.position();
      out.int4(dims);
      out.byte1(def.similarity().ordinal());
      out.int4(0); // maxDegree 0: no graph yet (VectorGraphBuilds adds it off the flush path)
      out.int4(0);
      byte[] buffer = new byte[64 * 1024];
      try (var in = Files.newInputStream(sideFile)) {
        int n;
        while ((n = in.read(buffer)) > 0) {
          out.write(buffer, 0, n);
        }
      }
      rows.finish(bodyAt, out.position(), 0, rows.rows());
    } catch (IOException e) {
      throw new StorageException("cannot write vector index from " + sideFile + ": " + e, e);
    } finally {
      try {
        Files.deleteIfExists(sideFile);
      } catch (IOException ignored) {
        // swept with the table's leftovers
      }
    }
  }
}
