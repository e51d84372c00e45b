package io.cassette.cluster.net;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A raw socket speaks the protocol, then sends a damaged frame: detected, connection closed, node fine. */
class CorruptionOverSocketTest {

  @Test
  void aCorruptedFrameClosesTheConnectionAndNothingOfItIsDelivered() throws Exception {
    try (TestRing ring = new TestRing(2); LogCapture logs = new LogCapture()) {
      CopyOnWriteArrayList<String> got = new CopyOnWriteArrayList<>();
      ring.node(0).registerHandler(Verb.TEST_REQ, m -> got.add(m.payloadAsString()));
      InetSocketAddress me = new InetSocketAddress(TestRing.address(4), ring.port());
      try (Socket s = new Socket()) {
        s.bind(new InetSocketAddress(me.getAddress(), 0));
        s.connect(ring.peer(0), 2000);
        s.setSoTimeout(3000);
        OutputStream out = s.getOutputStream();
        InputStream in = s.getInputStream();
        write(out, Handshake.encode(ByteBufAllocator.DEFAULT, new Handshake.Hello(MessagingService.CURRENT_VERSION,
            MessagingService.CURRENT_VERSION, ConnectionType.SMALL, 1, UUID.randomUUID(), me, MessagingConfig.DEFAULT_CLUSTER_NAME)));
        ByteBuf answer = Unpooled.buffer();
        Object accept = null;
        while (accept == null) {
          int b = in.read();
          assertThat(b).isNotNegative();
          answer.writeByte(b);
          accept = Handshake.decode(answer.duplicate());
        }
        assertThat(accept).isInstanceOf(Handshake.Accept.class);

        write(out, FrameCodecTest.encode(FrameFormat.MAX_PAYLOAD_BYTES, oneWay(1, "good")));
        ByteBuf bad = FrameCodecTest.encode(FrameFormat.MAX_PAYLOAD_BYTES, oneWay(2, "evil"));
        bad.setByte(bad.readableBytes() - 6, bad.getByte(bad.readableBytes() - 6) ^ 0x01); // a payload byte
        write(out, bad);
        write(out, FrameCodecTest.encode(FrameFormat.MAX_PAYLOAD_BYTES, oneWay(3, "after")));
        assertThat(in.read()).as("server closes the connection").isEqualTo(-1);
      }
      TestRing.sleep(200);
      assertThat(got).containsExactly("good");
      assertThat(ring.node(0).stats().corruptFrames()).isEqualTo(1);
      assertThat(logs.has("WARNING", "Closing internode connection from /127.0.0.5", "payload CRC32 mismatch")).isTrue();
      // The node keeps serving its real peers.
      assertThat(ring.node(1).sendWithCallback(ring.peer(0), Message.out(Verb.PING_REQ, new byte[0]))
          .get(5, TimeUnit.SECONDS).verb()).isEqualTo(Verb.PING_RSP);
    }
  }

  @Test
  void garbageInsteadOfAHandshakeIsRefused() throws Exception {
    try (TestRing ring = new TestRing(1)) {
      try (Socket s = new Socket(ring.peer(0).getAddress(), ring.port())) {
        s.setSoTimeout(3000);
        s.getOutputStream().write("GET / HTTP/1.1\r\n\r\n".getBytes());
        byte[] buf = new byte[256];
        int n = s.getInputStream().read(buf); // a REJECT, then close
        assertThat(n).isPositive();
        Object reply = Handshake.decode(Unpooled.wrappedBuffer(buf, 0, n));
        assertThat(reply).isInstanceOf(Handshake.Reject.class);
        assertThat(((Handshake.Reject) reply).refusal()).isEqualTo(Handshake.Refusal.BAD_HANDSHAKE);
      }
    }
  }

  static Message oneWay(long id, String text) {
    return Message.out(Verb.TEST_REQ, text).stamped(id, 0, 1, System.currentTimeMillis(), 5000);
  }

  static void write(OutputStream out, ByteBuf b) throws Exception {
    byte[] bytes = new byte[b.readableBytes()];
    b.readBytes(bytes);
    b.release();
    out.write(bytes);
    out.flush();
  }
}
