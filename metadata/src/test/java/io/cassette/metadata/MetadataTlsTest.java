package io.cassette.metadata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cassette.tls.TlsContextBuilder;
import io.cassette.tls.TlsSettings;
import io.cassette.tls.certs.HomeRingCertificates;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.SslContext;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLEngine;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS on the metadata port: three members on 127.0.0.1-3 that require each other's (and every
 * client's) certificate from the ring CA; a TLS follower on 127.0.0.4 catches up; a plain-text
 * client gets nothing readable; a node whose certificate comes from another CA, and a node
 * speaking plain text, can neither commit nor read the log.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class MetadataTlsTest {
    private static final String PASSWORD = "changeit";
    @TempDir static Path certs;
    private static HomeRingCertificates ringCa;
    private static HomeRingCertificates otherCa;
    @TempDir Path dir;

    @BeforeAll
    static void makeCertificates() throws Exception {
        ringCa = new HomeRingCertificates(certs.resolve("ring"), PASSWORD);
        ringCa.openOrCreateCa("ring CA", Duration.ofDays(2));
        otherCa = new HomeRingCertificates(certs.resolve("other"), PASSWORD);
        otherCa.openOrCreateCa("other CA", Duration.ofDays(2));
    }

    /** server_encryption_options as the server wires them: the node's key, the CA's trust, client certificates required. */
    static MetadataTls tls(HomeRingCertificates issuer, String name, HomeRingCertificates trusted) throws Exception {
        HomeRingCertificates.Issued id = issuer.issue(name, List.of("127.0.0.1", "127.0.0.2", "127.0.0.3", "127.0.0.4"),
                Duration.ofDays(1));
        TlsSettings s = TlsSettings.keyStore(id.keyStore(), PASSWORD, trusted.trustStore(), PASSWORD)
                .withClientAuth(TlsSettings.ClientAuthMode.REQUIRE);
        SslContext server = TlsContextBuilder.server(s);
        SslContext client = TlsContextBuilder.client(s);
        return new MetadataTls() {
            @Override
            public SSLEngine serverEngine() {
                return server.newEngine(ByteBufAllocator.DEFAULT);
            }

            @Override
            public SSLEngine clientEngine(String host, int port) {
                return client.newEngine(ByteBufAllocator.DEFAULT, host, port);
            }
        };
    }

    /**
     * One member, a TLS follower, then two strangers: cheap enough for the default suite (the
     * handshakes are follower to member only).
     */
    @Test
    void aFollowerCatchesUpOverTlsAndStrangersGetNothing() throws Exception {
        try (TestRing ring = new TestRing(dir, 1, 3, TestRing.TEST_TUNING)) {
            for (int i = 0; i < 2; i++) {
                ring.nodes[i] = new MetadataService(ring.configs.get(i)).useTls(tls(ringCa, "node" + i, ringCa));
                ring.nodes[i].start();
            }
            ClusterMetadata m = committedByBoth(ring, 2);
            strangersGetNothing(ring, 0, 2, m);
        }
    }

    /** Three members electing over TLS, a TLS follower; heavier (a dozen cold handshakes at once): -Pslow. */
    @Test
    @org.junit.jupiter.api.Tag("slow")
    void threeMembersElectAndReplicateOverTls() throws Exception {
        try (TestRing ring = new TestRing(dir, 3, 3, TestRing.TEST_TUNING)) {
            for (int i = 0; i < 4; i++) {
                ring.nodes[i] = new MetadataService(ring.configs.get(i)).useTls(tls(ringCa, "node" + i, ringCa));
                ring.nodes[i].start();
            }
            ClusterMetadata m = committedByBoth(ring, 4);
            strangersGetNothing(ring, 1, 4, m);
        }
    }

    /** A member (node 0 or 1) and the TLS follower (last of the first {@code tlsNodes}) each commit; all apply both. */
    private static ClusterMetadata committedByBoth(TestRing ring, int tlsNodes) throws Exception {
        for (int i = 0; i < tlsNodes; i++) {
            assertThat(ring.node(i).awaitReady(Duration.ofSeconds(60))).as("node %d ready", i).isTrue();
        }
        ring.node(tlsNodes > 2 ? 1 : 0).commit(Transformation.register("Test Cluster", Fixtures.member(1)))
                .get(60, TimeUnit.SECONDS);
        ClusterMetadata m = ring.node(tlsNodes - 1).commit(Transformation.schema("DDL",
                "CREATE KEYSPACE k".getBytes(StandardCharsets.UTF_8), null)).get(60, TimeUnit.SECONDS);
        for (int i = 0; i < tlsNodes; i++) {
            ring.node(i).awaitEpoch(m.epoch(), Duration.ofSeconds(30)).get();
            assertThat(ring.node(i).current().schema()).hasSize(1);
        }
        return m;
    }

    /**
     * A plain-text client gets at most a TLS alert from member {@code member}; a plain-text node
     * and a node with another CA's certificate (index {@code first} and next) can neither commit
     * nor learn the log.
     */
    private static void strangersGetNothing(TestRing ring, int member, int first, ClusterMetadata m) throws Exception {
        byte[] answer = plainTextExchange(ring.configs.get(0).members().get(member));
        assertThat(answer.length == 0 || answer[0] == 21).as("answer %s", java.util.Arrays.toString(answer)).isTrue();

        // The other CA's node trusts the ring CA, so only the member's demand for a ring
        // certificate stops it.
        MetadataServiceConfig.RaftTuning quick = TestRing.TEST_TUNING.withCommitTimeout(Duration.ofMillis(1500));
        ring.nodes[first] = new MetadataService(ring.configs.get(first).withTuning(quick));
        ring.nodes[first + 1] = new MetadataService(ring.configs.get(first + 1).withTuning(quick))
                .useTls(tls(otherCa, "intruder", ringCa));
        for (int i = first; i < first + 2; i++) {
            ring.nodes[i].start();
            int node = i;
            assertThatThrownBy(() -> ring.node(node).commit(Transformation.schema("DDL",
                    "DROP KEYSPACE k".getBytes(StandardCharsets.UTF_8), null)).get(30, TimeUnit.SECONDS))
                    .as("node %d commit", i).isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(MetadataUnavailableException.class);
            assertThat(ring.node(i).current().epoch().value()).as("node %d learnt nothing", i)
                    .isLessThan(m.epoch().value());
        }
        assertThat(ring.node(member).current().epoch()).isEqualTo(m.epoch());
    }

    /** Writes a Ratis-like plain-text frame to {@code member} and returns what comes back (bounded). */
    private static byte[] plainTextExchange(String member) throws Exception {
        int colon = member.lastIndexOf(':');
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(member.substring(0, colon), Integer.parseInt(member.substring(colon + 1))), 5000);
            s.setSoTimeout(10_000);
            s.getOutputStream().write(new byte[] {12, 10, 10, 8, 'a', 'p', 'p', 'e', 'n', 'd', 0, 0, 0});
            s.getOutputStream().flush();
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            InputStream in = s.getInputStream();
            byte[] buf = new byte[512];
            try {
                for (int n; got.size() < 4096 && (n = in.read(buf)) >= 0; ) got.write(buf, 0, n);
            } catch (SocketTimeoutException e) {
                throw new AssertionError("the member neither answered nor closed a plain-text connection in 10 s", e);
            } catch (java.net.SocketException e) {
                // reset after the alert: what was read so far is the answer
            }
            return got.toByteArray();
        }
    }
}
