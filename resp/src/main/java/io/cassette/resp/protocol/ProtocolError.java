package io.cassette.resp.protocol;

/**
 * A protocol violation found while decoding. Emitted by {@link RespDecoder} in place of a
 * request so it is answered in order after the requests before it; the connection is closed
 * once the error is written, as Redis does. {@code message} is Redis's exact reply text
 * (without the leading '-'); {@code detail} says what was wrong, for the server log.
 */
public record ProtocolError(String message, String detail) {}
