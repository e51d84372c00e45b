package io.cassette.storage.index;

import io.cassette.storage.Cell;
import io.cassette.storage.DecoratedKey;
import io.cassette.storage.Row;
import io.cassette.storage.StorageException;
import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.FloatBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Writes the vectors component of one SSTable for one index (format in {@link IndexComponent}):
 * rows stream to the file, vectors to a side file; at the end the graph is built reading the
 * vectors from that side file (mapped, so they need not fit in the heap), then vectors and
 * graph are appended. Not thread-safe.
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
      try (FileChannel ch = FileChannel.open(sideFile, StandardOpenOption.READ)) {
        int n = rows.rows();
        FloatBuffer floats = n == 0 ? FloatBuffer.allocate(0)
            : ch.map(FileChannel.MapMode.READ_ONLY, 0, (long) n * dims * 4).asFloatBuffer();
        VectorGraph.Vectors vectors = new VectorGraph.Vectors() {
          @Override
          public int size() {
            return n;
          }

          @Override
          public void read(int id, float[] v) {
            floats.get(id * dims, v, 0, dims);
          }
        };
        VectorGraph g = VectorGraph.build(vectors, def.similarity(), dims);
        out.int4(dims);
        out.byte1(def.similarity().ordinal());
        out.int4(g.maxDegree);
        out.int4(g.entry);
        float[] v = new float[dims];
        for (int i = 0; i < n; i++) {
          vectors.read(i, v);
          for (float f : v) {
            out.int4(Float.floatToRawIntBits(f));
          }
        }
        for (int i = 0; i < n; i++) {
          out.int4(g.degree[i]);
          for (int k = 0; k < g.maxDegree; k++) {
            out.int4(g.neighbours[i * g.maxDegree + k]);
          }
        }
      }
      rows.finish(bodyAt, out.position(), 0, rows.rows());
    } catch (IOException e) {
      throw new StorageException("cannot build vector index from " + sideFile + ": " + e, e);
    } finally {
      try {
        Files.deleteIfExists(sideFile);
      } catch (IOException ignored) {
        // swept with the table's leftovers
      }
    }
  }
}
