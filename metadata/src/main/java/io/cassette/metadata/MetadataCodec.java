package io.cassette.metadata;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.UUID;

/**
 * Binary encoding of metadata, transformations and their payloads (big-endian, as
 * DataOutput writes). Layouts, described in docs/format/metadata.md:
 *
 * <pre>
 * metadata     := epoch:long clusterName:utf
 *                 memberCount:int member*  tokenCount:int (token:long owner:uuid)*
 *                 planCount:int plan*      schemaCount:int schemaEntry*
 * member       := hostId:uuid broadcast:inet listen:inet nativePort:u16 respPort:u16
 *                 storagePort:u16 dc:utf rack:utf state:utf releaseVersion:utf
 * plan         := hostId:uuid kind:utf step:utf tokenCount:int token:long*
 * schemaEntry  := epoch:long version:uuid kind:utf payload:bytes
 * transformation := kind:utf payload:bytes
 * uuid := msb:long lsb:long   inet := length:byte address:byte[length]   bytes := length:int byte*
 * </pre>
 * Enum values are stored by name, so reordering an enum never changes a file's meaning.
 */
public final class MetadataCodec {
    /** Bound on one payload: metadata entries are small; anything larger is corruption. */
    static final int MAX_BYTES = 16 << 20;

    private MetadataCodec() {}

    // ---- whole metadata ----

    public static byte[] encode(ClusterMetadata m) {
        return write(out -> writeMetadata(out, m));
    }

    public static ClusterMetadata decodeMetadata(byte[] bytes) {
        return read(bytes, MetadataCodec::readMetadata);
    }

    static void writeMetadata(DataOutput out, ClusterMetadata m) throws IOException {
        out.writeLong(m.epoch().value());
        out.writeUTF(m.clusterName());
        out.writeInt(m.members().size());
        for (Member member : m.members().values()) writeMember(out, member);
        out.writeInt(m.tokens().size());
        for (var e : m.tokens().entrySet()) {
            out.writeLong(e.getKey());
            writeUuid(out, e.getValue());
        }
        out.writeInt(m.plans().size());
        for (InProgressPlan p : m.plans().values()) {
            writeUuid(out, p.hostId());
            out.writeUTF(p.kind().name());
            out.writeUTF(p.step().name());
            writeTokens(out, p.tokens());
        }
        out.writeInt(m.schema().size());
        for (SchemaEntry s : m.schema()) {
            out.writeLong(s.epoch().value());
            writeUuid(out, s.version());
            out.writeUTF(s.kind());
            writeBytes(out, s.payload());
        }
    }

    static ClusterMetadata readMetadata(DataInput in) throws IOException {
        Epoch epoch = Epoch.of(in.readLong());
        String clusterName = in.readUTF();
        SortedMap<UUID, Member> members = new TreeMap<>();
        for (int i = count(in); i > 0; i--) {
            Member m = readMember(in);
            members.put(m.hostId(), m);
        }
        TreeMap<Long, UUID> tokens = new TreeMap<>();
        for (int i = count(in); i > 0; i--) tokens.put(in.readLong(), readUuid(in));
        SortedMap<UUID, InProgressPlan> plans = new TreeMap<>();
        for (int i = count(in); i > 0; i--) {
            UUID host = readUuid(in);
            InProgressPlan.Kind kind = InProgressPlan.Kind.valueOf(in.readUTF());
            InProgressPlan.Step step = InProgressPlan.Step.valueOf(in.readUTF());
            plans.put(host, new InProgressPlan(host, kind, step, readTokens(in)));
        }
        List<SchemaEntry> schema = new ArrayList<>();
        for (int i = count(in); i > 0; i--) {
            schema.add(new SchemaEntry(Epoch.of(in.readLong()), readUuid(in), in.readUTF(), readBytes(in)));
        }
        return new ClusterMetadata(epoch, clusterName, members, tokens, plans, schema);
    }

    // ---- transformations ----

    public static byte[] encode(Transformation t) {
        return write(out -> writeTransformation(out, t));
    }

    public static Transformation decodeTransformation(byte[] bytes) {
        return read(bytes, MetadataCodec::readTransformation);
    }

    static void writeTransformation(DataOutput out, Transformation t) throws IOException {
        out.writeUTF(t.kind());
        writeBytes(out, t.payload());
    }

    static Transformation readTransformation(DataInput in) throws IOException {
        return new Transformation(in.readUTF(), readBytes(in));
    }

    // ---- payloads of the built-in kinds ----

    record Register(String clusterName, Member member) {}

    record HostAndTokens(UUID hostId, List<Long> tokens) {}

    record SchemaChange(String kind, byte[] change, long expectedSchemaEpoch) {}

    static byte[] encodeRegister(String clusterName, Member member) {
        return write(out -> { out.writeUTF(clusterName); writeMember(out, member); });
    }

    static Register decodeRegister(byte[] b) {
        return read(b, in -> new Register(in.readUTF(), readMember(in)));
    }

    static byte[] encodeMember(Member member) {
        return write(out -> writeMember(out, member));
    }

    static Member decodeMember(byte[] b) {
        return read(b, MetadataCodec::readMember);
    }

    static byte[] encodeHost(UUID hostId) {
        return write(out -> writeUuid(out, hostId));
    }

    static UUID decodeHost(byte[] b) {
        return read(b, MetadataCodec::readUuid);
    }

    record Hosts(UUID hostId, UUID other) {}

    static byte[] encodeHosts(UUID hostId, UUID other) {
        return write(out -> { writeUuid(out, hostId); writeUuid(out, other); });
    }

    static Hosts decodeHosts(byte[] b) {
        return read(b, in -> new Hosts(readUuid(in), readUuid(in)));
    }

    static byte[] encodeHostAndTokens(UUID hostId, List<Long> tokens) {
        return write(out -> { writeUuid(out, hostId); writeTokens(out, tokens); });
    }

    static HostAndTokens decodeHostAndTokens(byte[] b) {
        return read(b, in -> new HostAndTokens(readUuid(in), readTokens(in)));
    }

    static byte[] encodeSchemaChange(String kind, byte[] change, long expectedSchemaEpoch) {
        return write(out -> { out.writeUTF(kind); writeBytes(out, change); out.writeLong(expectedSchemaEpoch); });
    }

    static SchemaChange decodeSchemaChange(byte[] b) {
        return read(b, in -> new SchemaChange(in.readUTF(), readBytes(in), in.readLong()));
    }

    // ---- parts ----

    static void writeMember(DataOutput out, Member m) throws IOException {
        writeUuid(out, m.hostId());
        writeInet(out, m.broadcastAddress());
        writeInet(out, m.listenAddress());
        out.writeShort(m.nativePort());
        out.writeShort(m.respPort());
        out.writeShort(m.storagePort());
        out.writeUTF(m.dataCenter());
        out.writeUTF(m.rack());
        out.writeUTF(m.state().name());
        out.writeUTF(m.releaseVersion());
    }

    static Member readMember(DataInput in) throws IOException {
        UUID hostId = readUuid(in);
        InetAddress broadcast = readInet(in);
        InetAddress listen = readInet(in);
        int nativePort = in.readUnsignedShort();
        int respPort = in.readUnsignedShort();
        int storagePort = in.readUnsignedShort();
        String dc = in.readUTF();
        String rack = in.readUTF();
        NodeState state = NodeState.valueOf(in.readUTF());
        return new Member(hostId, broadcast, listen, nativePort, respPort, storagePort, dc, rack, state, in.readUTF());
    }

    static void writeUuid(DataOutput out, UUID id) throws IOException {
        out.writeLong(id.getMostSignificantBits());
        out.writeLong(id.getLeastSignificantBits());
    }

    static UUID readUuid(DataInput in) throws IOException {
        return new UUID(in.readLong(), in.readLong());
    }

    static void writeInet(DataOutput out, InetAddress a) throws IOException {
        byte[] raw = a.getAddress();
        out.writeByte(raw.length);
        out.write(raw);
    }

    static InetAddress readInet(DataInput in) throws IOException {
        int length = in.readUnsignedByte();
        if (length != 4 && length != 16) throw new IOException("address length: " + length + " (expected: 4 or 16)");
        byte[] raw = new byte[length];
        in.readFully(raw);
        return InetAddress.getByAddress(raw);
    }

    static void writeTokens(DataOutput out, List<Long> tokens) throws IOException {
        out.writeInt(tokens.size());
        for (long t : tokens.stream().sorted().toList()) out.writeLong(t);
    }

    static List<Long> readTokens(DataInput in) throws IOException {
        int n = count(in);
        List<Long> tokens = new ArrayList<>(n);
        for (int i = 0; i < n; i++) tokens.add(in.readLong());
        return tokens;
    }

    static void writeBytes(DataOutput out, byte[] b) throws IOException {
        out.writeInt(b.length);
        out.write(b);
    }

    static byte[] readBytes(DataInput in) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > MAX_BYTES) throw new IOException("length: " + length + " (expected: 0.." + MAX_BYTES + ")");
        byte[] b = new byte[length];
        in.readFully(b);
        return b;
    }

    private static int count(DataInput in) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > MAX_BYTES) throw new IOException("count: " + n + " (expected: 0.." + MAX_BYTES + ")");
        return n;
    }

    // ---- plumbing ----

    interface Writer { void write(DataOutputStream out) throws IOException; }

    interface Reader<T> { T read(DataInputStream in) throws IOException; }

    static byte[] write(Writer w) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(128);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            w.write(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // cannot happen on a byte array
        }
        return bytes.toByteArray();
    }

    /** Decodes all of {@code bytes}; trailing bytes or a short input raise IllegalArgumentException. */
    static <T> T read(byte[] bytes, Reader<T> r) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            T value = r.read(in);
            if (in.available() != 0) throw new IllegalArgumentException(in.available() + " trailing bytes");
            return value;
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("malformed metadata encoding (" + bytes.length + " bytes): " + e, e);
        }
    }
}
