package io.cassette.resp.stream;

/**
 * The per-stream fields Redis keeps beside the entries (stream.h): last generated ID, first
 * live ID, greatest deleted ID, entries ever added, and the tail "radix tree node" that new
 * entries join. Stored in one sub-row of the stream ({@link StreamLayout#STATE}). Layout,
 * big-endian (do not change: it is on disk):
 *
 * <pre>
 *  0 version(1) | last(16) | first(16) | maxDeleted(16) | entriesAdded(8)
 *    | tailNode(8) | tailNodeEntries(8) | tailNodeLive(8) | tailNodeBytes(8)
 * </pre>
 *
 * Nodes: Redis packs entries into listpacks of at most stream-node-max-entries entries /
 * stream-node-max-bytes bytes, and "~" trimming removes whole nodes only. Each entry here
 * carries the number of the node it joined, so approximate trimming behaves as Redis's does.
 * {@code tailNodeEntries} counts entries ever added to the tail node (deleted included, as
 * Redis's count), {@code tailNodeLive} those still there (0: the node is gone, next XADD opens one).
 */
final class StreamState {
  static final int VERSION = 1;
  static final int BYTES = 1 + 16 * 3 + 8 * 5;

  StreamId last = StreamId.MIN;
  StreamId first = StreamId.MIN;
  StreamId maxDeleted = StreamId.MIN;
  long entriesAdded;
  long tailNode;
  long tailNodeEntries;
  long tailNodeLive;
  long tailNodeBytes;

  byte[] encode() {
    byte[] out = new byte[BYTES];
    out[0] = VERSION;
    last.encode(out, 1);
    first.encode(out, 17);
    maxDeleted.encode(out, 33);
    StreamId.putLong(out, 49, entriesAdded);
    StreamId.putLong(out, 57, tailNode);
    StreamId.putLong(out, 65, tailNodeEntries);
    StreamId.putLong(out, 73, tailNodeLive);
    StreamId.putLong(out, 81, tailNodeBytes);
    return out;
  }

  static StreamState decode(byte[] in) {
    if (in.length != BYTES || in[0] != VERSION) {
      throw new IllegalStateException("stream state row of " + in.length + " bytes, version "
          + (in.length > 0 ? in[0] : -1) + " (expected: " + BYTES + " bytes, version " + VERSION + ")");
    }
    StreamState s = new StreamState();
    s.last = StreamId.decode(in, 1);
    s.first = StreamId.decode(in, 17);
    s.maxDeleted = StreamId.decode(in, 33);
    s.entriesAdded = StreamId.getLong(in, 49);
    s.tailNode = StreamId.getLong(in, 57);
    s.tailNodeEntries = StreamId.getLong(in, 65);
    s.tailNodeLive = StreamId.getLong(in, 73);
    s.tailNodeBytes = StreamId.getLong(in, 81);
    return s;
  }
}
