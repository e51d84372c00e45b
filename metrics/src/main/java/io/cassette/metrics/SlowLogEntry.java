package io.cassette.metrics;

import java.util.List;

/**
 * One entry of a {@link SlowLog}, the six fields of a Redis {@code SLOWLOG GET} entry.
 *
 * @param id             unique and increasing for the life of the node (not reset by RESET)
 * @param epochSecond    Unix time the request was logged
 * @param durationMicros how long it took to execute
 * @param args           the command and its arguments, or the CQL statement, cut as Redis cuts them
 * @param client         the client's address, {@code ip:port}
 * @param clientName     the name the client gave (CLIENT SETNAME, or the CQL driver's name), or ""
 */
public record SlowLogEntry(long id, long epochSecond, long durationMicros, List<String> args,
                           String client, String clientName) {}
