package io.cassette.cql.transport.frame;

import io.netty.buffer.ByteBuf;
import java.util.zip.CRC32;

/**
 * The two checksums of protocol v5 segments (native_protocol_v5.spec, section 2.2): a CRC24
 * over the segment header and a CRC32 over the payload. Both use Cassandra's parameters, so
 * the values match byte for byte what drivers compute.
 *
 * <p>Thread-safety: stateless apart from a per-thread {@link CRC32}.
 */
public final class Crc {
  /** Initial value of the header CRC24 (Cassandra's {@code CRC24_INIT}). */
  private static final int CRC24_INIT = 0x875060;
  /** Polynomial of the header CRC24, with the implicit x^24 bit (Cassandra's {@code CRC24_POLY}). */
  private static final int CRC24_POLY = 0x1974F0B;
  /** Bytes fed into every payload CRC32 before the payload, so an all-zero payload has a non-zero CRC. */
  private static final byte[] CRC32_INITIAL_BYTES = {(byte) 0xFA, (byte) 0x2D, (byte) 0x55, (byte) 0xCA};

  private static final ThreadLocal<CRC32> CRC32_PER_THREAD = ThreadLocal.withInitial(CRC32::new);

  private Crc() {}

  /** CRC24 of the {@code byteCount} low-order bytes of {@code bytes}, least significant byte first. */
  public static int crc24(long bytes, int byteCount) {
    int crc = CRC24_INIT;
    while (byteCount-- > 0) {
      crc ^= (int) (bytes & 0xff) << 16;
      bytes >>= 8;
      for (int i = 0; i < 8; i++) {
        crc <<= 1;
        if ((crc & 0x1000000) != 0) {
          crc ^= CRC24_POLY;
        }
      }
    }
    return crc;
  }

  /** CRC32 of {@code length} bytes of {@code buf} from {@code index}; does not move the indexes. */
  public static int crc32(ByteBuf buf, int index, int length) {
    CRC32 crc = CRC32_PER_THREAD.get();
    crc.reset();
    crc.update(CRC32_INITIAL_BYTES);
    if (buf.nioBufferCount() == 1) {
      // The buffer's own cached view: nioBuffer() would allocate a new one per segment. Safe
      // here: the view is used and dropped before anything else touches this buffer.
      crc.update(buf.internalNioBuffer(index, length));
    } else {
      for (java.nio.ByteBuffer part : buf.nioBuffers(index, length)) {
        crc.update(part);
      }
    }
    return (int) crc.getValue();
  }
}
