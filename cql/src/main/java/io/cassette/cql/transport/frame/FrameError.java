package io.cassette.cql.transport.frame;

/**
 * A framing problem the decoder found, passed down the pipeline instead of an exception so
 * the connection handler answers it as a PROTOCOL_ERROR on the right stream.
 *
 * @param version  the version to answer in (the client must be able to read it)
 * @param streamId the stream of the offending frame, or 0 when it could not be read
 * @param message  what was wrong, with the offending and the expected values
 * @param fatal    true when the byte stream can no longer be trusted (bad version, bad
 *                 length, checksum mismatch): the connection is closed after the answer
 */
public record FrameError(int version, int streamId, String message, boolean fatal) {}
