package io.cassette.server.ring;

import io.cassette.coordinator.Coordinator;
import io.cassette.coordinator.metadata.KeyspaceDefinition;
import io.cassette.metadata.ClusterMetadata;
import io.cassette.metadata.Member;
import io.cassette.metadata.NodeState;
import io.cassette.metadata.Ownership;
import io.cassette.server.Version;
import io.cassette.server.http.AdminHttpServer;
import io.cassette.server.http.AdminHttpServer.Request;
import io.cassette.server.http.AdminHttpServer.Response;
import io.cassette.server.http.JsonWriter;
import io.cassette.storage.Engine;
import io.cassette.storage.Murmur3Token;
import io.cassette.storage.Table;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * The ring's answers behind {@code nodetool status | ring | describecluster | getendpoints}
 * on a node of a ring (they replace the single-node {@code /api/status} and
 * {@code /api/describecluster}), and the dashboard's ring view ({@code /api/ring}).
 * Everything comes from this node's metadata snapshot and failure detector; a peer's load is
 * the one its last heartbeat answer reported (-1, shown "?", before the first).
 */
public final class RingEndpoints {
  static final String SNITCH = "org.apache.cassandra.locator.GossipingPropertyFileSnitch";
  static final String PARTITIONER = "org.apache.cassandra.dht.Murmur3Partitioner";

  private final RingNode ring;
  private final Coordinator coordinator;
  private final Supplier<UUID> schemaVersion;
  private final BiFunction<String, String[], byte[]> partitionKey;

  private RingEndpoints(RingNode ring, Coordinator coordinator, Supplier<UUID> schemaVersion,
                        BiFunction<String, String[], byte[]> partitionKey) {
    this.ring = ring;
    this.coordinator = coordinator;
    this.schemaVersion = schemaVersion;
    this.partitionKey = partitionKey;
  }

  /**
   * @param schemaVersion the CQL schema version (the same on every node at the same epoch)
   * @param partitionKey  (key text, {keyspace, table}) -> the partition key's bytes, for getendpoints
   */
  public static void register(AdminHttpServer http, RingNode ring, Coordinator coordinator,
                              Supplier<UUID> schemaVersion, BiFunction<String, String[], byte[]> partitionKey) {
    RingEndpoints api = new RingEndpoints(ring, coordinator, schemaVersion, partitionKey);
    http.register("/api/status", guard(api::status));
    http.register("/api/ring", guard(api::status));
    http.register("/api/describecluster", guard(api::describeCluster));
    http.register("/api/getendpoints", guard(api::endpoints));
    // The dashboard's document gains a "ring" field (the status above): its page shows a ring
    // table when the field is there.
    java.util.function.Function<Request, Response> dashboard = http.endpoint("/api/dashboard.json");
    if (dashboard != null) {
      http.register("/api/dashboard.json", req -> {
        Response r = dashboard.apply(req);
        String body = r.body().strip();
        if (r.status() != 200 || !body.endsWith("}")) {
          return r;
        }
        return Response.json(body.substring(0, body.length() - 1) + ",\"ring\":" + api.status(req) + "}");
      });
    }
  }

  /** The bytes of getendpoints' KEY for {@code keyspace.table} (see {@link PartitionKeyText}). */
  public static byte[] partitionKey(io.cassette.cql.language.schema.SchemaManager schema, String keyspace,
                                    String table, String key) {
    return PartitionKeyText.encode(schema, keyspace, table, key);
  }

  private static java.util.function.Function<Request, Response> guard(java.util.function.Function<Request, String> f) {
    return req -> {
      try {
        return Response.json(f.apply(req));
      } catch (IllegalArgumentException e) {
        return new Response(400, "application/json", JsonWriter.error(e.getMessage()));
      }
    };
  }

  private static String param(Request req, String name) {
    List<String> v = req.parameters().get(name);
    return v == null || v.isEmpty() ? null : v.get(0);
  }

  /** Cassandra's note when {@code nodetool status} has no keyspace and the user keyspaces replicate differently. */
  static final String MIXED_REPLICATION_NOTE = "Non-system keyspaces don't have the same replication settings, "
      + "effective ownership information is meaningless";

  /**
   * The replication {@code nodetool status} without a keyspace reports effective ownership by,
   * as Cassandra 5.0's {@code StorageService.effectiveOwnership(null)}: the user keyspaces'
   * (system ones, node-local ones and the Redis door's own keyspace aside) when they all have
   * the same settings, system_traces' (SimpleStrategy, 2) when there is none, else null (the
   * status then shows "?" and {@link #MIXED_REPLICATION_NOTE}).
   */
  private Map<String, String> defaultReplication() {
    Map<String, String> first = null;
    for (KeyspaceDefinition k : coordinator.metadata().current().keyspaces().values()) {
      String name = k.name();
      Map<String, String> r = normalized(k.replication());
      if (name.startsWith("system") || name.equals(io.cassette.resp.keyspace.RedisLayout.KEYSPACE)
          || r.getOrDefault("class", "").equals("LocalStrategy")) {
        continue;
      }
      if (first == null) {
        first = r;
      } else if (!first.equals(r)) {
        return null;
      }
    }
    return first != null ? first : Map.of("class", "SimpleStrategy", "replication_factor", "2");
  }

  private static Map<String, String> normalized(Map<String, String> replication) {
    Map<String, String> r = new TreeMap<>(replication);
    String cls = r.getOrDefault("class", "");
    r.put("class", cls.substring(cls.lastIndexOf('.') + 1));
    return r;
  }

  /**
   * Fraction of the data each node holds, effective by {@code keyspace}'s replication (null:
   * by {@link #defaultReplication()}); null when that is meaningless (mixed replication).
   */
  private Map<UUID, Double> owns(ClusterMetadata m, String keyspace) {
    Map<String, String> r;
    if (keyspace == null) {
      r = defaultReplication();
      if (r == null) {
        return null;
      }
    } else {
      KeyspaceDefinition k = coordinator.metadata().current().keyspace(keyspace);
      if (k == null) {
        throw new IllegalArgumentException("Unknown keyspace: " + keyspace);
      }
      r = k.replication();
    }
    String cls = r.getOrDefault("class", "");
    Map<UUID, Double> out = new LinkedHashMap<>();
    if (cls.endsWith("NetworkTopologyStrategy")) {
      for (String dc : dataCenters(m)) {
        int rf = Integer.parseInt(r.getOrDefault(dc, "0"));
        if (rf > 0) {
          out.putAll(Ownership.effective(m, dc, rf));
        }
      }
    } else if (cls.endsWith("LocalStrategy")) {
      out.put(ring.hostId(), 1.0);
    } else {
      out.putAll(Ownership.effective(m, null, Integer.parseInt(r.getOrDefault("replication_factor", "1"))));
    }
    return out;
  }

  private static Set<String> dataCenters(ClusterMetadata m) {
    Set<String> dcs = new java.util.TreeSet<>();
    for (Member member : m.members().values()) {
      if (member.isActive()) {
        dcs.add(member.dataCenter());
      }
    }
    return dcs;
  }

  /** "UN", "DN", "UJ", "UL", ... */
  private String code(Member m) {
    String state = switch (m.state()) {
      case JOINING, REGISTERED -> "J";
      case LEAVING -> "L";
      default -> "N";
    };
    return (ring.isAlive(m) ? "U" : "D") + state;
  }

  /** A node's load as nodetool reports it: the bytes of its tables' files on disk. */
  public static long load(Engine engine) {
    long total = 0;
    for (Table t : engine.tables()) {
      total += t.metrics().bytesOnDisk();
    }
    return total;
  }

  private String status(Request req) {
    ClusterMetadata m = ring.metadata().current();
    Map<UUID, Double> effective = owns(m, param(req, "keyspace"));
    Map<UUID, Double> owns = effective == null ? Ownership.primary(m) : effective;
    JsonWriter w = new JsonWriter().beginObject()
        .field("clusterName", m.clusterName())
        .field("effectiveOwnership", effective != null);
    if (effective == null) {
      w.field("note", MIXED_REPLICATION_NOTE);
    }
    w
        .field("epoch", m.epoch().value())
        .field("datacenter", ring.settings().dataCenter())
        .name("datacenters").beginArray();
    Map<String, List<Member>> byDc = new TreeMap<>();
    for (Member member : m.members().values()) {
      if (member.isActive()) {
        byDc.computeIfAbsent(member.dataCenter(), d -> new ArrayList<>()).add(member);
      }
    }
    for (Map.Entry<String, List<Member>> dc : byDc.entrySet()) {
      w.beginObject().field("name", dc.getKey()).name("nodes").beginArray();
      dc.getValue().sort(java.util.Comparator.comparing((Member x) -> x.broadcastAddress().getHostAddress()));
      for (Member member : dc.getValue()) {
        node(w, m, member, owns);
      }
      w.endArray().endObject();
    }
    w.endArray().name("nodes").beginArray();
    for (Member member : m.members().values()) {
      if (member.isActive()) {
        node(w, m, member, owns);
      }
    }
    return w.endArray().endObject().toString();
  }

  private void node(JsonWriter w, ClusterMetadata m, Member member, Map<UUID, Double> owns) {
    w.beginObject()
        .field("state", code(member))
        .field("status", ring.isAlive(member) ? "Up" : "Down")
        .field("nodeState", member.state().name())
        .field("address", member.broadcastAddress().getHostAddress())
        .field("loadBytes", ring.load(member))
        .field("owns", owns.getOrDefault(member.hostId(), 0.0))
        .field("hostId", member.hostId().toString())
        .field("datacenter", member.dataCenter())
        .field("rack", member.rack())
        .name("tokens").beginArray();
    for (long t : RingNode.tokensOf(m, member)) {
      w.value(Long.toString(t));
    }
    w.endArray().endObject();
  }

  private String describeCluster(Request req) {
    ClusterMetadata m = ring.metadata().current();
    List<String> live = new ArrayList<>();
    List<String> down = new ArrayList<>();
    int joining = 0;
    int leaving = 0;
    Map<String, int[]> dcs = new TreeMap<>();
    for (Member member : m.members().values()) {
      if (!member.isActive()) {
        continue;
      }
      boolean up = ring.isAlive(member);
      (up ? live : down).add(member.broadcastAddress().getHostAddress());
      joining += member.state() == NodeState.JOINING || member.state() == NodeState.REGISTERED ? 1 : 0;
      leaving += member.state() == NodeState.LEAVING ? 1 : 0;
      int[] c = dcs.computeIfAbsent(member.dataCenter(), d -> new int[2]);
      c[0]++;
      c[1] += up ? 0 : 1;
    }
    JsonWriter w = new JsonWriter().beginObject()
        .field("name", m.clusterName())
        .field("snitch", SNITCH)
        .field("partitioner", PARTITIONER)
        .field("epoch", m.epoch().value())
        .name("schemaVersions").beginObject()
        .name(schemaVersion.get().toString()).beginArray();
    live.forEach(w::value);
    w.endArray();
    if (!down.isEmpty()) {
      w.name("UNREACHABLE").beginArray();
      down.forEach(w::value);
      w.endArray();
    }
    w.endObject()
        .field("live", live.size()).field("joining", joining).field("moving", 0).field("leaving", leaving)
        .field("unreachable", down.size())
        .name("datacenters").beginObject();
    dcs.forEach((dc, c) -> w.name(dc).beginObject().field("nodes", c[0]).field("down", c[1]).endObject());
    w.endObject().name("versions").beginObject().name(Version.get()).beginArray();
    live.forEach(w::value);
    w.endArray().endObject().name("keyspaces").beginArray();
    new TreeMap<>(coordinator.metadata().current().keyspaces()).keySet().forEach(w::value);
    return w.endArray().endObject().toString();
  }

  /** getendpoints KS TABLE KEY: the replicas of the key's token, as the keyspace places them. */
  private String endpoints(Request req) {
    String ks = param(req, "keyspace");
    String table = param(req, "table");
    String key = param(req, "key");
    if (ks == null || table == null || key == null) {
      throw new IllegalArgumentException("getendpoints needs keyspace, table and key");
    }
    KeyspaceDefinition k = coordinator.metadata().current().keyspace(ks);
    if (k == null || k.table(table).isEmpty()) {
      throw new IllegalArgumentException("Unknown table " + ks + "." + table);
    }
    long token = Murmur3Token.of(partitionKey.apply(key, new String[] {ks, table}));
    ClusterMetadata m = ring.metadata().current();
    Map<String, String> r = k.replication();
    List<Member> replicas = new ArrayList<>();
    if (r.getOrDefault("class", "").endsWith("NetworkTopologyStrategy")) {
      for (String dc : dataCenters(m)) {
        replicas.addAll(walk(m, dc, token, Integer.parseInt(r.getOrDefault(dc, "0"))));
      }
    } else {
      replicas.addAll(walk(m, null, token, Integer.parseInt(r.getOrDefault("replication_factor", "1"))));
    }
    JsonWriter w = new JsonWriter().beginObject().field("token", Long.toString(token)).name("endpoints").beginArray();
    for (Member member : replicas) {
      w.value(member.broadcastAddress().getHostAddress());
    }
    return w.endArray().endObject().toString();
  }

  /** The first {@code rf} distinct owners clockwise from {@code token} among {@code dc}'s nodes (null: all). */
  private static List<Member> walk(ClusterMetadata m, String dc, long token, int rf) {
    NavigableMap<Long, UUID> tokens = Ownership.ring(m, dc);
    Set<UUID> owners = new LinkedHashSet<>();
    if (!tokens.isEmpty() && rf > 0) {
      for (UUID owner : tokens.tailMap(token, true).values()) {
        owners.add(owner);
      }
      for (UUID owner : tokens.values()) {
        owners.add(owner);
      }
    }
    List<Member> out = new ArrayList<>();
    for (UUID id : owners) {
      if (out.size() == rf) {
        break;
      }
      out.add(m.member(id));
    }
    return out;
  }
}
