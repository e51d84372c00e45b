package io.cassette.metadata;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/**
 * A ClusterMetadata snapshot on disk (docs/format/metadata.md):
 *
 * <pre>
 * file := magic:int = 0x43534D44 ("CSMD")  version:short = 1  length:int
 *         metadata:byte[length]            (MetadataCodec)
 *         crc:int                           CRC32C of every byte before it
 * </pre>
 * Written to a temporary name, forced, then renamed, so a crash leaves the old file or the
 * new one. A reader tells truncated, extended and corrupted files apart and names the file.
 */
public final class SnapshotFile {
    static final int MAGIC = 0x43534D44;
    static final short VERSION = 1;
    private static final int HEADER = 4 + 2 + 4;
    private static final int FOOTER = 4;

    private SnapshotFile() {}

    public static void write(Path file, ClusterMetadata m) throws IOException {
        byte[] body = MetadataCodec.encode(m);
        ByteBuffer buf = ByteBuffer.allocate(HEADER + body.length + FOOTER);
        buf.putInt(MAGIC).putShort(VERSION).putInt(body.length).put(body);
        CRC32C crc = new CRC32C();
        crc.update(buf.array(), 0, buf.position());
        buf.putInt((int) crc.getValue()).flip();
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            while (buf.hasRemaining()) ch.write(buf);
            ch.force(true);
        }
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    public static ClusterMetadata read(Path file) throws IOException {
        byte[] all = Files.readAllBytes(file);
        if (all.length < HEADER + FOOTER) throw new IOException(file + ": truncated metadata snapshot (" + all.length + " bytes)");
        ByteBuffer buf = ByteBuffer.wrap(all);
        int magic = buf.getInt();
        if (magic != MAGIC) throw new IOException(file + ": not a metadata snapshot (magic 0x" + Integer.toHexString(magic) + ")");
        short version = buf.getShort();
        if (version != VERSION) throw new IOException(file + ": metadata snapshot format version " + version
                + " is not supported (this release reads version " + VERSION + ")");
        int length = buf.getInt();
        long expected = (long) HEADER + length + FOOTER;
        if (length < 0 || all.length < expected) throw new IOException(file + ": truncated metadata snapshot ("
                + all.length + " bytes, expected " + expected + ")");
        if (all.length > expected) throw new IOException(file + ": extended metadata snapshot (" + all.length
                + " bytes, expected " + expected + ")");
        CRC32C crc = new CRC32C();
        crc.update(all, 0, HEADER + length);
        int stored = ByteBuffer.wrap(all, HEADER + length, FOOTER).getInt();
        if (stored != (int) crc.getValue()) throw new IOException(file + ": metadata snapshot checksum failed at offset "
                + (HEADER + length) + " (hardware problem?)");
        byte[] body = new byte[length];
        buf.get(body);
        try {
            return MetadataCodec.decodeMetadata(body);
        } catch (IllegalArgumentException e) {
            throw new IOException(file + ": " + e.getMessage(), e);
        }
    }
}
