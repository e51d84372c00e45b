package io.cassette.metadata;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The messages exchanged with the metadata service through Ratis, besides the log entries
 * themselves (a {@link Transformation} encoded by {@link MetadataCodec}):
 *
 * <pre>
 * commitReply := 0:byte epoch:long             applied at epoch
 *              | 1:byte reason:utf              rejected
 * logSince    := 1:byte epoch:long              "send me what follows this epoch"
 * logState    := hasSnapshot:byte [metadata] count:int (epoch:long transformation)*
 * </pre>
 * A logState is Cassandra's LogState: an optional snapshot to skip ahead to, then entries
 * to apply on top of it, in order. Any member may answer; the log is immutable, so an
 * answer from a member that is behind is incomplete but never wrong.
 */
final class MetadataMessages {
    private static final byte APPLIED = 0;
    private static final byte REJECTED = 1;
    private static final byte LOG_SINCE = 1;

    private MetadataMessages() {}

    record LogState(ClusterMetadata snapshot, List<MetadataStateMachine.LogEntry> entries) {}

    static byte[] commitReply(ApplyResult r) {
        return MetadataCodec.write(out -> {
            if (r instanceof ApplyResult.Applied a) {
                out.writeByte(APPLIED);
                out.writeLong(a.metadata().epoch().value());
            } else {
                out.writeByte(REJECTED);
                out.writeUTF(((ApplyResult.Rejected) r).reason());
            }
        });
    }

    /** The epoch of an applied commit, or a thrown MetadataRejectedException. */
    static Epoch decodeCommitReply(byte[] b) {
        Object o = MetadataCodec.read(b, in -> in.readByte() == APPLIED ? (Object) Epoch.of(in.readLong()) : in.readUTF());
        if (o instanceof Epoch e) return e;
        throw new MetadataRejectedException((String) o);
    }

    static byte[] logSince(Epoch since) {
        return MetadataCodec.write(out -> { out.writeByte(LOG_SINCE); out.writeLong(since.value()); });
    }

    static Epoch decodeLogSince(byte[] b) {
        return MetadataCodec.read(b, in -> {
            byte op = in.readByte();
            if (op != LOG_SINCE) throw new IOException("unknown metadata query " + op);
            return Epoch.of(in.readLong());
        });
    }

    static byte[] logState(ClusterMetadata snapshot, List<MetadataStateMachine.LogEntry> entries) {
        return MetadataCodec.write(out -> {
            out.writeBoolean(snapshot != null);
            if (snapshot != null) MetadataCodec.writeMetadata(out, snapshot);
            out.writeInt(entries.size());
            for (var e : entries) {
                out.writeLong(e.epoch().value());
                MetadataCodec.writeTransformation(out, e.transformation());
            }
        });
    }

    static LogState decodeLogState(byte[] b) {
        return MetadataCodec.read(b, in -> {
            ClusterMetadata snapshot = in.readBoolean() ? MetadataCodec.readMetadata(in) : null;
            int n = in.readInt();
            List<MetadataStateMachine.LogEntry> entries = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                entries.add(new MetadataStateMachine.LogEntry(Epoch.of(in.readLong()), MetadataCodec.readTransformation(in)));
            }
            return new LogState(snapshot, entries);
        });
    }
}
