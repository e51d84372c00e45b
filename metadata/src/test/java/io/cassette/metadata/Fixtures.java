package io.cassette.metadata;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.UUID;

/** Members for tests: node i lives on 127.0.0.i. */
final class Fixtures {
    private Fixtures() {}

    static UUID host(int i) {
        return new UUID(0x1000 + i, i);
    }

    static Member member(int i) {
        return member(i, "dc1");
    }

    static Member member(int i, String dc) {
        try {
            InetAddress a = InetAddress.getByName("127.0.0." + i);
            return new Member(host(i), a, a, 9042, 6379, 7000, dc, "rack1", NodeState.REGISTERED, "0.1.0");
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }
}
