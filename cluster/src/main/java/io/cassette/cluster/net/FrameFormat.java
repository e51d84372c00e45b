package io.cassette.cluster.net;

/**
 * The framing of an internode connection after the handshake, as Cassandra 4+ frames it:
 *
 * <pre>
 *  0                   1                   2
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3   (bits, little-endian 24-bit word)
 * +---------------------------------+-+-----------+
 * |  payload length (17 bits)       |S|  unused   |   S: self-contained
 * +---------------------------------+-+-----------+
 * |  CRC24 of the three bytes above (3 bytes)     |
 * +-----------------------------------------------+
 * |  payload (length bytes)   ...                 |
 * +-----------------------------------------------+
 * |  CRC32 of the payload (4 bytes, big-endian)   |
 * +-----------------------------------------------+
 * </pre>
 *
 * A self-contained frame holds one or more whole messages (each size-prefixed, see
 * {@link MessageSerializer}). A message too big for one frame is cut into consecutive frames
 * that are not self-contained; the first starts with the message's size prefix. Large messages
 * go on their own connection ({@link ConnectionType#LARGE}), so frames of different messages
 * never interleave.
 */
final class FrameFormat {
  static final int HEADER_BYTES = 6;
  static final int TRAILER_BYTES = 4;
  /** Per-frame overhead. */
  static final int OVERHEAD_BYTES = HEADER_BYTES + TRAILER_BYTES;
  /** 17 bits of length: 128 KiB - 1. */
  static final int MAX_PAYLOAD_BYTES = (1 << 17) - 1;
  static final int SELF_CONTAINED_BIT = 1 << 17;

  private FrameFormat() {}
}
