package io.cassette.storage.index;

import io.cassette.storage.sstable.SSTableDescriptor;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where an SSTable's index component lives and what its bytes are: one file per SSTable and
 * index, {@code v1-<generation>-SAI_<index>.db} beside the SSTable's own files (the SSTable
 * loader does not match the name, so it neither loads nor deletes it; {@link TableIndexes}
 * deletes components whose SSTable is gone). Written to {@code .tmp}, fsynced, renamed.
 *
 * <pre>
 * file       := header rows rowOffsets body trailer
 * header     := magic:int "CSAI"  version:int  kind:byte (1 terms, 2 vectors)
 * rows       := (token:long keyLen:vint key ckLen:vint clustering)*   in primary-key order;
 *               row id = position in this list; only rows holding a value of the column
 * rowOffsets := offset:long * rowCount         absolute offset of each row, for row id -> key
 * body(1)    := (termLen:vint term count:vint (rowIdDelta:vint)*count)*   terms in unsigned order
 *               summary: (termLen:vint term offset:long)* every SUMMARY_INTERVAL-th term
 * body(2)    := dims:int similarity:byte maxDegree:int entry:int
 *               vectors: (float * dims) * rowCount      (big-endian IEEE)
 *               graph:   (count:int (neighbour:int) * maxDegree) * rowCount
 *               maxDegree 0: no graph yet (none follows the vectors), as a flush or compaction
 *               writes it; the graph thread writes {@code <name>.graph.db.tmp} with it and
 *               renames that over the component (VectorGraphComponent)
 * trailer    := rowCount:int rowOffsetsAt:long bodyAt:long summaryAt:long summaryCount:int
 *               termCount:long crc32c:int magic:int   (crc of every byte before it)
 * </pre>
 */
final class IndexComponent {
  static final int MAGIC = 0x43534149; // "CSAI"
  static final int VERSION = 1;
  static final byte KIND_TERMS = 1;
  static final byte KIND_VECTORS = 2;
  static final int HEADER_BYTES = 9;
  static final int TRAILER_BYTES = 4 + 8 + 8 + 8 + 4 + 8 + 4 + 4;
  /** One term in this many is kept in memory to find where a lookup starts reading. */
  static final int SUMMARY_INTERVAL = 32;

  private static final Pattern NAME = Pattern.compile("v\\d+-(\\d+)-SAI_(.+)\\.db(\\.tmp)?");

  private IndexComponent() {}

  static Path path(SSTableDescriptor d, String index) {
    return d.directory().resolve(SSTableDescriptor.VERSION + "-" + d.generation() + "-SAI_" + fileSafe(index) + ".db");
  }

  static Path tmpPath(SSTableDescriptor d, String index) {
    Path p = path(d, index);
    return p.resolveSibling(p.getFileName() + ".tmp");
  }

  /** The generation of an index component file, or -1 if {@code fileName} is not one. */
  static long generation(String fileName) {
    Matcher m = NAME.matcher(fileName);
    return m.matches() ? Long.parseLong(m.group(1)) : -1;
  }

  /** Index names are CQL identifiers; quoted ones may hold anything, so those bytes are hex. */
  static String fileSafe(String name) {
    StringBuilder b = new StringBuilder();
    for (char c : name.toCharArray()) {
      if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_') {
        b.append(c);
      } else {
        b.append('%').append(String.format("%04x", (int) c));
      }
    }
    return b.toString();
  }
}
