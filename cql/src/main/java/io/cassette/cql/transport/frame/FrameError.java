package io.cassette.cql.transport.frame;

import io.cassette.cql.ErrorCode;

/**
 * A framing problem the decoder found, passed down the pipeline instead of an exception so
 * the connection handler answers it on the right stream.
 *
 * @param version  the version to answer in (the client must be able to read it)
 * @param streamId the stream of the offending frame, or 0 when it could not be read
 * @param code     the error code (PROTOCOL_ERROR; INVALID for a request over a size limit and
 *                 OVERLOADED for one over the in-flight limits, as Cassandra answers them)
 * @param message  what was wrong, with the offending and the expected values
 * @param fatal    true when the byte stream can no longer be trusted (bad version, bad
 *                 length, checksum mismatch): the connection is closed after the answer
 */
public record FrameError(int version, int streamId, ErrorCode code, String message, boolean fatal) {
  /** A PROTOCOL_ERROR. */
  public FrameError(int version, int streamId, String message, boolean fatal) {
    this(version, streamId, ErrorCode.PROTOCOL_ERROR, message, fatal);
  }
}
