package io.cassette.storage.index;

import io.cassette.storage.StorageException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.function.BooleanSupplier;

/**
 * A vectors component with its graph, made from the same component without one: the header,
 * rows, row offsets and vectors are copied byte for byte (so row ids and offsets stay), the
 * graph is built from the mapped vectors and appended, and the trailer written again. The new
 * file is left sealed under a temporary name for the caller to install over the old one (an
 * atomic rename): a crash before that leaves the graph-less component, still correct, and a
 * {@code .tmp} that the table deletes when it opens.
 */
final class VectorGraphComponent {
  private VectorGraphComponent() {}

  /** Where the component at {@code component} is rewritten with its graph before the rename. */
  static Path tmpPath(Path component) {
    String name = component.getFileName().toString();
    return component.resolveSibling(name.substring(0, name.length() - ".db".length()) + ".graph.db.tmp");
  }

  /**
   * Writes {@code from}'s component with a graph; returns it sealed, or null if {@code wanted}
   * turned false meanwhile (nothing left on disk then).
   */
  static IndexOutput write(VectorIndexReader from, BooleanSupplier wanted) {
    VectorGraph g = VectorGraph.build(from.vectorSource(), from.similarity, from.dims, wanted);
    if (g == null) {
      return null;
    }
    IndexOutput out = new IndexOutput(tmpPath(from.path), from.path);
    boolean sealed = false;
    try {
      copy(from, 0, from.bodyAt, out);
      out.int4(from.dims);
      out.byte1(from.similarity.ordinal());
      out.int4(g.maxDegree);
      out.int4(g.entry);
      copy(from, from.vectorsAt, (long) from.rowCount * from.dims * 4, out);
      for (int i = 0; i < from.rowCount; i++) {
        out.int4(g.degree[i]);
        for (int k = 0; k < g.maxDegree; k++) {
          out.int4(g.neighbours[i * g.maxDegree + k]);
        }
      }
      // the trailer as VectorIndexWriter writes it (RowTableWriter.finish)
      long bodyEnd = out.position();
      out.int4(from.rowCount);
      out.long8(from.rowOffsetsAt);
      out.long8(from.bodyAt);
      out.long8(bodyEnd);
      out.int4(0);
      out.long8(from.rowCount);
      out.seal();
      sealed = true;
      return out;
    } finally {
      if (!sealed) {
        out.close();
      }
    }
  }

  private static void copy(VectorIndexReader from, long at, long length, IndexOutput out) {
    ByteBuffer b = ByteBuffer.allocate(64 * 1024);
    long end = at + length;
    try {
      while (at < end) {
        b.clear();
        b.limit((int) Math.min(b.capacity(), end - at));
        int n = from.channel.read(b, at);
        if (n <= 0) {
          throw new StorageException("index component " + from.path + " ended at offset " + at + " while copying");
        }
        out.write(b.array(), 0, n);
        at += n;
      }
    } catch (IOException e) {
      throw new StorageException("cannot read index component " + from.path + ": " + e, e);
    }
  }
}
