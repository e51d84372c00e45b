package io.cassette.server.ring;

import io.cassette.coordinator.ring.hints.HintedHandoff;
import io.cassette.coordinator.ring.hints.PendingHints;
import io.cassette.metadata.Member;
import io.cassette.server.http.AdminHttpServer;
import io.cassette.server.http.AdminHttpServer.Request;
import io.cassette.server.http.AdminHttpServer.Response;
import io.cassette.server.http.JsonWriter;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.UUID;

/**
 * {@code nodetool listpendinghints} ({@code GET /api/pendinghints}: per node this node keeps
 * hints for, its address with the storage port, rack, DC, UP/DOWN, files, newest and oldest
 * file times in ms) and {@code nodetool truncatehints [ENDPOINT]} ({@code POST
 * /api/truncatehints}, optional {@code endpoint}: an address of a member).
 */
public final class HintsEndpoints {
  private HintsEndpoints() {}

  public static void register(AdminHttpServer http, RingNode ring, HintedHandoff hints) {
    http.register("/api/pendinghints", req -> Response.json(pending(ring, hints)));
    http.register("/api/truncatehints", req -> {
      if (!req.method().equals("POST")) {
        return new Response(405, "application/json", JsonWriter.error(req.path() + " changes the node: use POST"));
      }
      try {
        hints.truncate(hostId(ring, req));
        return Response.json("{}");
      } catch (IllegalArgumentException e) {
        return new Response(400, "application/json", JsonWriter.error(e.getMessage()));
      }
    });
  }

  static String pending(RingNode ring, HintedHandoff hints) {
    JsonWriter w = new JsonWriter().beginObject().name("hints").beginArray();
    for (PendingHints p : hints.pending()) {
      Member m = ring.metadata().current().member(p.hostId());
      w.beginObject().field("hostId", p.hostId().toString());
      if (m != null) {
        w.field("address", m.listenAddress().getHostAddress() + ":" + m.storagePort())
            .field("rack", m.rack()).field("dc", m.dataCenter())
            .field("status", ring.isAlive(m) ? "UP" : "DOWN");
      }
      w.field("totalFiles", p.totalFiles()).field("newest", p.newestMillis()).field("oldest", p.oldestMillis())
          .field("bytes", p.bytes()).endObject();
    }
    return w.endArray().endObject().toString();
  }

  /** The host id of the request's {@code endpoint}, or null (all) when there is none. */
  private static UUID hostId(RingNode ring, Request req) {
    List<String> v = req.parameters().get("endpoint");
    if (v == null || v.isEmpty() || v.get(0).isEmpty()) {
      return null;
    }
    String text = v.get(0);
    String host = text.contains(":") && text.indexOf(':') == text.lastIndexOf(':')
        ? text.substring(0, text.indexOf(':')) : text;
    InetAddress address;
    try {
      address = InetAddress.getByName(host);
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("Unknown endpoint: " + text);
    }
    for (Member m : ring.metadata().current().members().values()) {
      if (m.listenAddress().equals(address) || m.broadcastAddress().equals(address)) {
        return m.hostId();
      }
    }
    throw new IllegalArgumentException("Unknown endpoint: " + text);
  }
}
