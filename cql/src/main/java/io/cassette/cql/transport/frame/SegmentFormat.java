package io.cassette.cql.transport.frame;

/**
 * Layout of protocol v5 segments (native_protocol_v5.spec, section 2), in which envelopes
 * travel once STARTUP has been answered. All multi-byte fields are little-endian.
 *
 * <pre>
 * uncompressed segment:
 *   +-------------------------------+------------+----------------------+-------------+
 *   | 17b payload length            | CRC24 of   | payload              | CRC32 of    |
 *   | 1b self-contained | 6b pad    | header (3) | (<= 131071 bytes)    | payload (4) |
 *   +-------------------------------+------------+----------------------+-------------+
 * LZ4-compressed segment:
 *   +-----------------------------------------------+------------+---------+-------------+
 *   | 17b compressed length | 17b uncompressed len  | CRC24 of   | payload | CRC32 of    |
 *   | 1b self-contained     | 5b pad                | header (3) |         | payload (4) |
 *   +-----------------------------------------------+------------+---------+-------------+
 *   uncompressed length 0: the payload was not worth compressing and is stored as is.
 * </pre>
 *
 * A self-contained segment holds one or more whole envelopes; an envelope larger than the
 * maximum payload is cut across consecutive segments that are not self-contained.
 */
public final class SegmentFormat {
  /** Largest payload of one segment: 2^17 - 1. */
  public static final int MAX_PAYLOAD_LENGTH = (1 << 17) - 1;
  public static final int UNCOMPRESSED_HEADER_LENGTH = 6;
  public static final int COMPRESSED_HEADER_LENGTH = 8;
  public static final int CRC24_LENGTH = 3;
  public static final int CRC32_LENGTH = 4;
  /** Bits of each length field. */
  public static final int LENGTH_BITS = 17;
  public static final int LENGTH_MASK = (1 << LENGTH_BITS) - 1;

  private SegmentFormat() {}
}
