package io.cassette.coordinator.ring.hints;

import java.nio.file.Path;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One hints file: the hints for one node, in the order they were stored. Named as Cassandra
 * names them, {@code <host id>-<creation time in ms>-<version>.hints}, so the name alone says
 * whose hints they are and how old (nodetool listpendinghints' Newest and Oldest).
 *
 * <pre>
 * file   := RecordFile with magic 'CSHT'
 * record := createdAt:i64 (ms since the epoch) mutation (a MUTATION_REQ payload, RingCodec)
 * </pre>
 */
public record HintsFile(Path path, UUID hostId, long createdMillis) {
  private static final Pattern NAME = Pattern.compile(
      "([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})-(\\d+)-(\\d+)\\.hints");

  public static String name(UUID hostId, long createdMillis) {
    return hostId + "-" + createdMillis + "-" + RecordFile.VERSION + ".hints";
  }

  /** The file a name describes, or null when the name is not a hints file's. */
  public static HintsFile parse(Path path) {
    Matcher m = NAME.matcher(path.getFileName().toString());
    if (!m.matches()) {
      return null;
    }
    return new HintsFile(path, UUID.fromString(m.group(1)), Long.parseLong(m.group(2)));
  }
}
