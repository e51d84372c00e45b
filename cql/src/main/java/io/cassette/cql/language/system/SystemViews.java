package io.cassette.cql.language.system;

import io.cassette.cql.ClientState;
import io.cassette.cql.language.NodeInfo;
import io.cassette.cql.language.types.CollectionCodec;
import io.cassette.cql.language.types.Values;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Rows of the system_views tables tools read (Cassandra 5.0's virtual tables): settings (the
 * keys Cassette shares with cassandra.yaml, values as Cassandra prints them), system_properties,
 * clients (the open CQL connections) and caches (the three rows Cassandra lists: the key
 * cache's figures from storage's KeyCache; Cassette keeps no row or counter cache, so those are zero).
 */
public final class SystemViews {
  /** The system properties Cassandra 5.0 lists (its table holds the JVM's and its own). */
  private static final List<String> PROPERTY_PREFIXES = List.of("java.", "os.", "file.", "user.", "line.separator",
      "path.separator", "sun.arch.data.model", "cassandra.", "cassette.");

  private SystemViews() {}

  static List<Map<String, byte[]>> settings(NodeInfo node) {
    return settings(node, false, false, false);
  }

  /**
   * The settings rows, with the node's own {@code user_defined_functions_enabled},
   * {@code materialized_views_enabled} and {@code dynamic_data_masking_enabled} (set at start from config).
   */
  public static List<Map<String, byte[]>> settings(NodeInfo node, boolean userDefinedFunctions, boolean views,
                                                   boolean dataMasking) {
    Map<String, String> s = new LinkedHashMap<>();
    s.put("cluster_name", node.clusterName());
    s.put("listen_address", node.listenAddress().getHostAddress());
    s.put("rpc_address", node.rpcAddress().getHostAddress());
    s.put("native_transport_port", Integer.toString(node.rpcPort()));
    s.put("storage_port", Integer.toString(node.ring().storagePort()));
    s.put("num_tokens", Integer.toString(node.localTokens().size()));
    s.put("partitioner", SystemTables.PARTITIONER);
    s.put("user_defined_functions_enabled", Boolean.toString(userDefinedFunctions));
    s.put("materialized_views_enabled", Boolean.toString(views));
    s.put("dynamic_data_masking_enabled", Boolean.toString(dataMasking));
    List<Map<String, byte[]>> out = new ArrayList<>();
    for (Map.Entry<String, String> e : s.entrySet()) {
      out.add(nameValue(e.getKey(), e.getValue()));
    }
    return out;
  }

  static List<Map<String, byte[]>> systemProperties() {
    List<Map<String, byte[]>> out = new ArrayList<>();
    for (Map.Entry<Object, Object> e : new TreeMap<>(System.getProperties()).entrySet()) {
      String name = String.valueOf(e.getKey());
      for (String p : PROPERTY_PREFIXES) {
        if (name.startsWith(p)) {
          out.add(nameValue(name, String.valueOf(e.getValue())));
          break;
        }
      }
    }
    return out;
  }

  /** The connections to the node {@code asking} is connected to. */
  public static List<Map<String, byte[]>> clients(ClientState asking) {
    List<Map<String, byte[]>> out = new ArrayList<>();
    for (ClientState c : ClientState.connectedLike(asking)) {
      InetSocketAddress a = c.remoteAddress();
      if (a == null) {
        continue;
      }
      Map<String, String> options = c.clientOptions();
      Map<String, byte[]> r = new HashMap<>();
      r.put("address", Values.ofInet(a.getAddress()));
      r.put("port", Values.ofInt(a.getPort()));
      List<byte[]> ks = new ArrayList<>();
      List<byte[]> vs = new ArrayList<>();
      for (Map.Entry<String, String> e : new TreeMap<>(options).entrySet()) {
        ks.add(Values.ofText(e.getKey()));
        vs.add(Values.ofText(e.getValue()));
      }
      r.put("client_options", CollectionCodec.packMap(ks, vs));
      r.put("connection_stage", Values.ofText(c.stage()));
      putText(r, "driver_name", options.get("DRIVER_NAME"));
      putText(r, "driver_version", options.get("DRIVER_VERSION"));
      r.put("hostname", Values.ofText(a.getHostName()));
      putText(r, "keyspace_name", c.keyspace());
      if (c.protocolVersion() > 0) {
        r.put("protocol_version", Values.ofInt(c.protocolVersion()));
      }
      r.put("request_count", Values.ofLong(c.requestCount()));
      putText(r, "ssl_cipher_suite", c.sslCipherSuite());
      r.put("ssl_enabled", Values.ofBoolean(c.sslProtocol() != null));
      putText(r, "ssl_protocol", c.sslProtocol());
      r.put("username", Values.ofText(c.user() == null ? "anonymous" : c.user()));
      out.add(r);
    }
    return out;
  }

  static List<Map<String, byte[]>> caches() {
    io.cassette.storage.sstable.KeyCache keys = io.cassette.storage.sstable.KeyCache.shared();
    List<Map<String, byte[]>> out = new ArrayList<>();
    out.add(cache("counters", 0, 0, 0, 0));
    out.add(cache("keys", keys.sizeBytes(), keys.entries(), keys.hits(), keys.hits() + keys.misses()));
    out.add(cache("rows", 0, 0, 0, 0));
    return out;
  }

  /** One cache's row; the key cache's entries each take {@link io.cassette.storage.sstable.KeyCache#BYTES_PER_ENTRY}. */
  private static Map<String, byte[]> cache(String name, long capacityBytes, long entries, long hits, long requests) {
    Map<String, byte[]> r = new HashMap<>();
    r.put("name", Values.ofText(name));
    r.put("capacity_bytes", Values.ofLong(capacityBytes));
    r.put("entry_count", Values.ofInt((int) Math.min(Integer.MAX_VALUE, entries)));
    r.put("hit_count", Values.ofLong(hits));
    r.put("hit_ratio", Values.ofDouble(requests == 0 ? Double.NaN : (double) hits / requests));
    // Cassandra's recent rates are 15-minute moving averages; none is kept here
    r.put("recent_hit_rate_per_second", Values.ofLong(0));
    r.put("recent_request_rate_per_second", Values.ofLong(0));
    r.put("request_count", Values.ofLong(requests));
    r.put("size_bytes", Values.ofLong(entries * io.cassette.storage.sstable.KeyCache.BYTES_PER_ENTRY));
    return r;
  }

  private static void putText(Map<String, byte[]> r, String column, String value) {
    if (value != null) {
      r.put(column, Values.ofText(value));
    }
  }

  private static Map<String, byte[]> nameValue(String name, String value) {
    Map<String, byte[]> r = new HashMap<>();
    r.put("name", Values.ofText(name));
    r.put("value", Values.ofText(value));
    return r;
  }
}
