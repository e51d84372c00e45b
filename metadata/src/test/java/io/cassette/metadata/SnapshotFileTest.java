package io.cassette.metadata;

import static io.cassette.metadata.Fixtures.host;
import static io.cassette.metadata.Fixtures.member;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SnapshotFileTest {
    @TempDir Path dir;

    static ClusterMetadata sample() {
        ClusterMetadata m = ClusterMetadata.EMPTY;
        m = Transformations.applyAll(m, List.of(
                Transformation.register("ring", member(1)),
                Transformation.prepareJoin(host(1), List.of(-5L, 7L)),
                Transformation.startJoin(host(1)),
                Transformation.finishJoin(host(1)),
                Transformation.register("ring", member(2, "dc2")),
                Transformation.prepareJoin(host(2), List.of(100L)),
                Transformation.schema("CREATE_KEYSPACE", new byte[] {1, 2, 3}, null)));
        return m;
    }

    @Test
    void roundTripsEveryPart() throws IOException {
        ClusterMetadata m = sample();
        Path f = dir.resolve("m.db");
        SnapshotFile.write(f, m);
        ClusterMetadata back = SnapshotFile.read(f);
        assertThat(back).isEqualTo(m);
        assertThat(back.plan(host(2)).tokens()).containsExactly(100L);
        assertThat(back.member(host(2)).dataCenter()).isEqualTo("dc2");
        assertThat(back.schemaVersion()).isEqualTo(m.schemaVersion());
    }

    @Test
    void damageIsNamed() throws IOException {
        Path f = dir.resolve("m.db");
        SnapshotFile.write(f, sample());
        byte[] good = Files.readAllBytes(f);

        byte[] flipped = good.clone();
        flipped[20] ^= 1;
        Files.write(f, flipped);
        assertThatThrownBy(() -> SnapshotFile.read(f)).hasMessageContaining("checksum failed");

        Files.write(f, Arrays.copyOf(good, good.length - 3));
        assertThatThrownBy(() -> SnapshotFile.read(f)).hasMessageContaining("truncated");

        Files.write(f, Arrays.copyOf(good, good.length + 1));
        assertThatThrownBy(() -> SnapshotFile.read(f)).hasMessageContaining("extended");

        byte[] newer = good.clone();
        newer[5] = 9;
        Files.write(f, newer);
        assertThatThrownBy(() -> SnapshotFile.read(f)).hasMessageContaining("format version 9 is not supported");
    }

    @Test
    void transformationsRoundTrip() {
        Transformation t = Transformation.prepareJoin(host(3), List.of(1L, 2L));
        assertThat(MetadataCodec.decodeTransformation(MetadataCodec.encode(t))).isEqualTo(t);
    }
}
