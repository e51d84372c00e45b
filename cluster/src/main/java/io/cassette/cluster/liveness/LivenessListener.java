package io.cassette.cluster.liveness;

import java.net.InetSocketAddress;

/**
 * Told when the failure detector changes its mind about a peer. Called on the detector's
 * thread (a messaging event loop or handler thread): return quickly. UP/DOWN is advice for
 * routing requests and for drivers' events; it never decides cluster metadata.
 */
public interface LivenessListener {
  void onUp(InetSocketAddress peer);

  void onDown(InetSocketAddress peer);
}
