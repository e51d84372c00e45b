package io.cassette.cql.transport.messages;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

/**
 * An EXECUTE's prepared id read from the frame: the same array for a repeated id, and always
 * exactly the id's bytes, also when ids that share a slot (same last four bytes) alternate.
 */
class PreparedIdDecodeTest {
  private static ByteBuf frameOf(byte[] id) {
    ByteBuf b = Unpooled.buffer();
    b.writeShort(id.length).writeBytes(id).writeByte(0x7F); // a byte after it: read no further
    return b;
  }

  private static byte[] id(int first, int last) {
    byte[] id = new byte[16];
    id[0] = (byte) first;
    id[5] = (byte) (first >> 8);
    id[15] = (byte) last;
    return id;
  }

  @Test
  void aRepeatedIdIsSharedAndEveryIdReadsBackExactly() {
    byte[] a = id(1, 9);
    ByteBuf f1 = frameOf(a);
    byte[] first = CqlCodec.readPreparedId(f1, "id");
    assertThat(first).isEqualTo(a);
    assertThat(f1.readByte()).isEqualTo((byte) 0x7F);
    byte[] again = CqlCodec.readPreparedId(frameOf(a), "id");
    assertThat(again).isSameAs(first);
    for (int i = 0; i < 300; i++) { // same slot, different ids (also differing only past the 8th byte's word)
      byte[] other = id(i, 9);
      ByteBuf f = frameOf(other);
      assertThat(CqlCodec.readPreparedId(f, "id")).isEqualTo(other);
      assertThat(f.readByte()).isEqualTo((byte) 0x7F);
      assertThat(CqlCodec.readPreparedId(frameOf(a), "id")).isEqualTo(a);
    }
    byte[] shortId = {3, 4};
    assertThat(CqlCodec.readPreparedId(frameOf(shortId), "id")).isEqualTo(shortId);
    assertThat(CqlCodec.readPreparedId(frameOf(new byte[0]), "id")).isEmpty();
  }
}
