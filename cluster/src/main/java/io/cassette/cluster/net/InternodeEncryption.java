package io.cassette.cluster.net;

import io.cassette.tls.ReloadingTlsContext;
import io.cassette.tls.TlsAcceptor;
import io.netty.channel.Channel;
import java.net.InetSocketAddress;
import java.util.function.Predicate;

/**
 * TLS between nodes ({@code server_encryption_options}): which peers get an encrypted
 * connection, the context this node accepts with and the one it connects with. Cassandra's
 * {@code internode_encryption}: {@code all} encrypts every connection; {@code dc} only those
 * to another datacenter (a peer whose datacenter is not known yet counts as another), and the
 * accepting side then takes both TLS and plain text on {@code storage_port}; {@code none}
 * encrypts nothing. Both sides present the node's certificate, so with
 * {@code require_client_auth} a peer without one signed by a trusted CA is refused.
 */
public final class InternodeEncryption {
  /** Cassandra's internode_encryption values (rack is not offered: a home ring has one). */
  public enum Mode { NONE, ALL, DC }

  private final Mode mode;
  private final TlsAcceptor acceptor;
  private final ReloadingTlsContext client;
  private final Predicate<InetSocketAddress> sameDatacenter;

  /**
   * @param server         the accepting side's context (key, trust, require_client_auth)
   * @param client         the connecting side's context (key, trust, endpoint verification)
   * @param optional       accept plain text too (server_encryption_options.optional); always so in dc mode
   * @param sameDatacenter whether a peer (storage address) is in this node's datacenter
   */
  public InternodeEncryption(Mode mode, ReloadingTlsContext server, ReloadingTlsContext client,
                             boolean optional, Predicate<InetSocketAddress> sameDatacenter) {
    this.mode = mode;
    this.acceptor = new TlsAcceptor(server, optional || mode == Mode.DC);
    this.client = client;
    this.sameDatacenter = sameDatacenter;
  }

  public Mode mode() {
    return mode;
  }

  /** Whether the connection to {@code peer} is encrypted. */
  public boolean encryptsTo(InetSocketAddress peer) {
    return switch (mode) {
      case NONE -> false;
      case ALL -> true;
      case DC -> !sameDatacenter.test(peer);
    };
  }

  /** On an accepted connection: TLS (or TLS-or-plain) first in its pipeline. */
  void accept(Channel ch) {
    if (mode != Mode.NONE) {
      acceptor.addTo(ch);
    }
  }

  /** On an outgoing connection to {@code peer}: TLS first when this peer is encrypted to. */
  void connect(Channel ch, InetSocketAddress peer) {
    if (encryptsTo(peer)) {
      ch.pipeline().addFirst(TlsAcceptor.HANDLER_NAME, client.current().newHandler(ch.alloc(),
          peer.getAddress().getHostAddress(), peer.getPort()));
    }
  }
}
