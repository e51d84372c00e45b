package io.cassette.cluster.net;

import io.netty.handler.codec.DecoderException;

/**
 * Bytes on an internode connection that cannot be what the peer sent: a header or payload
 * checksum failed, or a size is out of bounds. The connection is closed (the stream cannot be
 * resynchronised) and the sender reconnects; messages in the bad frame are lost, as on a
 * dropped connection, and their senders time out.
 */
final class CorruptFrameException extends DecoderException {
  private static final long serialVersionUID = 1L;

  CorruptFrameException(String message) {
    super(message);
  }
}
