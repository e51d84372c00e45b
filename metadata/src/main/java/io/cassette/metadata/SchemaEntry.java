package io.cassette.metadata;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;
import java.util.UUID;

/**
 * One schema change as the metadata log holds it. The schema is owned by the CQL layer: to
 * this module the change is an opaque payload with a kind the CQL layer chose, and the CQL
 * layer replays the entries in epoch order to build its schema.
 *
 * @param epoch   the epoch at which the change was applied
 * @param version the schema version after the change ({@link #versionAt(Epoch)}), reported
 *                as schema_version by every node that has applied it
 * @param kind    the CQL layer's name for the change, e.g. "CREATE_TABLE"
 * @param payload the serialized change; never modified (callers must not modify it either)
 */
public record SchemaEntry(Epoch epoch, UUID version, String kind, byte[] payload) {
    public SchemaEntry {
        Objects.requireNonNull(epoch, "epoch");
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(payload, "payload");
    }

    /**
     * The schema version a change applied at {@code epoch} produces: a name-based (type 3) UUID,
     * so every node derives the same version without storing anything else.
     */
    public static UUID versionAt(Epoch epoch) {
        return UUID.nameUUIDFromBytes(("cassette-schema-" + epoch.value()).getBytes(StandardCharsets.US_ASCII));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SchemaEntry e && epoch.equals(e.epoch) && version.equals(e.version)
                && kind.equals(e.kind) && Arrays.equals(payload, e.payload);
    }

    @Override
    public int hashCode() {
        return Objects.hash(epoch, version, kind) * 31 + Arrays.hashCode(payload);
    }

    @Override
    public String toString() {
        return "SchemaEntry[" + epoch + ", " + version + ", " + kind + ", " + payload.length + " bytes]";
    }
}
