package io.cassette.cql;

import java.nio.ByteBuffer;
import java.util.List;

/** One statement of a BATCH message: query text or a prepared id, with its values. */
public record BatchStatement(String query, byte[] preparedId, List<ByteBuffer> values) {}
