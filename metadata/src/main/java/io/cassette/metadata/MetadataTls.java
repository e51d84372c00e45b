package io.cassette.metadata;

import javax.net.ssl.SSLEngine;

/**
 * TLS on the metadata port: where the node's engines come from. The server wires it from
 * {@code server_encryption_options} (the same key, trust and client-certificate rule as
 * internode messaging), so renewing the node's certificate files changes the next connection
 * here too. Plain JDK types so this module depends on no TLS library of its own.
 *
 * <p>Both ends of every Raft connection present the node's certificate: with
 * {@code require_client_auth} a process without a certificate signed by a trusted CA cannot
 * vote, append or even ask a member for the log.
 */
public interface MetadataTls {
    /** A fresh server-mode engine for a connection accepted on the metadata port. */
    SSLEngine serverEngine();

    /** A fresh client-mode engine for a connection to a member at {@code host:port}. */
    SSLEngine clientEngine(String host, int port);

    /**
     * Whether the metadata port also takes plain-text connections (server_encryption_options'
     * {@code optional}, for turning TLS on across a running ring). Outgoing connections are TLS
     * either way.
     */
    default boolean acceptsPlainText() {
        return false;
    }
}
