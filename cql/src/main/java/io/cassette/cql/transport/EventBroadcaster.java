package io.cassette.cql.transport;

import io.cassette.cql.Result;
import io.cassette.cql.transport.frame.Envelope;
import io.cassette.cql.transport.messages.CqlCodec;
import io.cassette.cql.transport.messages.Opcode;
import io.cassette.cql.transport.messages.ResultEncoder;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.AttributeKey;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.util.Locale;

/**
 * Pushes EVENT messages (stream -1) to the connections that sent REGISTER for their type.
 * Closed channels leave their groups by themselves. Thread-safety: thread-safe.
 */
final class EventBroadcaster {
  static final String SCHEMA_CHANGE = "SCHEMA_CHANGE";
  static final String TOPOLOGY_CHANGE = "TOPOLOGY_CHANGE";
  static final String STATUS_CHANGE = "STATUS_CHANGE";
  /** The protocol version a connection speaks, for encoding its events. */
  static final AttributeKey<Integer> VERSION = AttributeKey.valueOf("cassette.cql.version");

  private final ChannelGroup schemaListeners = new DefaultChannelGroup("schema", GlobalEventExecutor.INSTANCE);
  private final ChannelGroup topologyListeners = new DefaultChannelGroup("topology", GlobalEventExecutor.INSTANCE);
  private final ChannelGroup statusListeners = new DefaultChannelGroup("status", GlobalEventExecutor.INSTANCE);

  /**
   * Registers {@code channel} for {@code eventType}.
   *
   * @throws io.cassette.cql.CqlException PROTOCOL_ERROR for an unknown event type
   */
  void register(Channel channel, String eventType) {
    switch (eventType.toUpperCase(Locale.ROOT)) {
      case SCHEMA_CHANGE -> schemaListeners.add(channel);
      case TOPOLOGY_CHANGE -> topologyListeners.add(channel);
      case STATUS_CHANGE -> statusListeners.add(channel);
      default -> throw CqlCodec.malformed("Invalid value '" + eventType + "' for Type");
    }
  }

  void schemaChanged(Result.SchemaChange change) {
    for (Channel channel : schemaListeners) {
      Integer version = channel.attr(VERSION).get();
      if (version == null) {
        continue;
      }
      ByteBuf body = channel.alloc().buffer(64);
      CqlCodec.writeString(body, SCHEMA_CHANGE);
      ResultEncoder.writeSchemaChange(body, change);
      channel.writeAndFlush(new Envelope(version, 0, -1, Opcode.EVENT, body), channel.voidPromise());
    }
  }

  /** TOPOLOGY_CHANGE: {@code change} is NEW_NODE, REMOVED_NODE or MOVED_NODE. */
  void topologyChanged(String change, java.net.InetSocketAddress node) {
    nodeEvent(topologyListeners, TOPOLOGY_CHANGE, change, node);
  }

  /** STATUS_CHANGE: {@code change} is UP or DOWN. */
  void statusChanged(String change, java.net.InetSocketAddress node) {
    nodeEvent(statusListeners, STATUS_CHANGE, change, node);
  }

  private static void nodeEvent(ChannelGroup listeners, String type, String change, java.net.InetSocketAddress node) {
    for (Channel channel : listeners) {
      Integer version = channel.attr(VERSION).get();
      if (version == null) {
        continue;
      }
      ByteBuf body = channel.alloc().buffer(64);
      CqlCodec.writeString(body, type);
      CqlCodec.writeString(body, change);
      CqlCodec.writeInet(body, node);
      channel.writeAndFlush(new Envelope(version, 0, -1, Opcode.EVENT, body), channel.voidPromise());
    }
  }

  int listenerCount() {
    return schemaListeners.size() + topologyListeners.size() + statusListeners.size();
  }
}
