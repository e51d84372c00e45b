package io.cassette.server;

import io.cassette.coordinator.Coordinator;
import io.cassette.coordinator.local.LocalCoordinator;
import io.cassette.coordinator.ring.RingCoordinator;
import io.cassette.server.config.Config;
import io.cassette.server.config.ConfigKeys;
import io.cassette.cql.language.CqlLanguage;
import io.cassette.cql.language.NodeInfo;
import io.cassette.cql.transport.CqlLimits;
import io.cassette.cql.transport.CqlServer;
import io.cassette.cql.transport.CqlServerOptions;
import io.cassette.metrics.NodeMetrics;
import io.cassette.resp.RespServer;
import io.cassette.resp.RespServerOptions;
import io.cassette.server.http.AdminHttpServer;
import io.cassette.server.ring.HintsEndpoints;
import io.cassette.server.ring.RingEndpoints;
import io.cassette.server.ring.RingNode;
import io.cassette.server.ring.RingSettings;
import io.cassette.server.ring.RingWrites;
import io.cassette.metadata.Member;
import io.cassette.storage.CommitLogSync;
import io.cassette.storage.Engine;
import io.cassette.storage.EngineOptions;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running node: the storage engine and the front doors on top of it, started in order
 * and closed in reverse. Front doors with port 0 are not started.
 */
public final class CassetteNode implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(CassetteNode.class);

  private final Config config;
  private final ResourceSizing sizing;
  private final List<AutoCloseable> started = new ArrayList<>();
  private final List<String> listening = new ArrayList<>();
  private Engine engine;
  private LocalCoordinator coordinator;
  /** What the front doors call: the ring's coordinator, or {@link #coordinator} on a single node. */
  private Coordinator front;
  private EventLoopGroup adminLoop;
  private final Path confDirectory;
  private volatile CqlLanguage cqlLanguage;
  /** A ring node's CQL schema, read before it serves peers' writes (null on one node). */
  private io.cassette.cql.language.schema.SchemaManager cqlSchema;
  /** Roles and permissions of the CQL door (null when the CQL port is off). */
  private io.cassette.cql.auth.AccessControl access;
  /** This node in its ring; null for a single node (no seeds). */
  private RingNode ring;
  /** The ring's hints and batch log; null for a single node. */
  private RingWrites ringWrites;
  /** Anti-entropy repair (nodetool repair); null for a single node. */
  private io.cassette.coordinator.ring.repair.RepairService repair;

  public CassetteNode(Config config, ResourceSizing sizing) {
    this(config, sizing, null);
  }

  /** @param confDirectory where the configuration file is (for cassandra-rackdc.properties), or null */
  public CassetteNode(Config config, ResourceSizing sizing, Path confDirectory) {
    this.config = config;
    this.sizing = sizing;
    this.confDirectory = confDirectory;
  }

  /**
   * Opens storage and binds every enabled port.
   *
   * @throws StartException with a message for the operator when a port cannot be bound
   */
  public void start() throws InterruptedException, java.net.UnknownHostException {
    RingSettings ringSettings = RingSettings.from(config, confDirectory);
    NodeIdentity identity = NodeIdentity.loadOrCreate(config.dataDirectory(), config.integer(ConfigKeys.NUM_TOKENS));
    if (ringSettings.isRing()) {
      // Raft loads ~2,000 classes: start it first, beside storage, not after it.
      ring = new RingNode(ringSettings, identity, config.dataDirectory());
      io.cassette.metadata.MetadataTls metadataTls = DoorTls.metadata(config);
      if (metadataTls != null) {
        ring.metadata().useTls(metadataTls);
      }
      ring.startMetadata();
    }
    engine = Engine.open(engineOptions());
    started.add(engine);
    engine.listen(new MetricsStorageListener(NodeMetrics.global()));
    // The front doors see only the coordinator: every read, write and schema change goes
    // through it (on one node, a local call to the engine).
    String host = config.string(ConfigKeys.LISTEN_ADDRESS);
    NodeAuth.warnIfOpen(config, host);
    int cqlPort = config.integer(ConfigKeys.NATIVE_TRANSPORT_PORT);
    int respPort = config.integer(ConfigKeys.RESP_PORT);
    if (ring != null) {
      started.add(ring);
      RingNode r = ring;
      coordinator = LocalCoordinator.open(engine, ringSettings.dataCenter(), r::schemaLog);
      Engine storage = engine;
      ring.localLoad(() -> RingEndpoints.load(storage));
      ring.localSchemaVersion(() -> cqlLanguage == null ? null : cqlLanguage.schema().current().version());
      ring.internodeEncryption(sameDc -> DoorTls.internode(config, sameDc));
      ring.startMessaging();
      java.util.concurrent.atomic.AtomicReference<RingCoordinator> ringCoordinator = new java.util.concurrent.atomic.AtomicReference<>();
      ringWrites = RingWrites.start(config, ring, ringCoordinator::get);
      started.add(ringWrites);
      RingCoordinator forwarding = new RingCoordinator(coordinator, ring.messaging(), r::tokenRing, r::awaitEpoch,
          ringWrites.hints());
      forwarding.batchlog(ringWrites.batchlog());
      // Paxos registers on disk, written before each promise and acceptance and fsynced as the
      // commit log is (periodic: in the background each commitlog_sync_period; batch/group: before
      // the answer, grouped); ballots from this node's clock, with the fault lab's skew when set.
      long skewMicros = Long.getLong("cassette.test_fault.clock_offset_ms", 0) * 1000;
      java.util.function.LongSupplier wallMicros = () -> System.currentTimeMillis() * 1000 + skewMicros;
      long paxosSyncPeriodMillis = config.string(ConfigKeys.COMMITLOG_SYNC).equals("periodic")
          ? Math.max(1, config.duration(ConfigKeys.COMMITLOG_SYNC_PERIOD).toMillis()) : 0;
      forwarding.paxosState(io.cassette.coordinator.ring.paxos.PaxosStore.open(config.dataDirectory().resolve("paxos"),
          io.cassette.coordinator.ring.paxos.PaxosStore.PURGE_GRACE_MICROS, wallMicros, paxosSyncPeriodMillis));
      forwarding.clock(wallMicros);
      long slowFsyncMs = Long.getLong("cassette.test_fault.slow_fsync_ms", 0); // the fault lab's slow disk
      if (slowFsyncMs > 0) {
        io.cassette.storage.commitlog.CommitLogSegment.simulatedSyncStallNanos = slowFsyncMs * 1_000_000L;
      }
      ringCoordinator.set(forwarding);
      // Peers' writes (hints, replica writes, batch log replays) arrive from the moment the
      // handlers are registered, while the CQL door is built only after join and awaitPeers: the
      // CQL schema, with the materialized views those writes must update, is read before.
      cqlSchema = new io.cassette.cql.language.schema.SchemaManager(forwarding);
      forwarding.registerHandlers();
      ring.paxosRepair(new io.cassette.coordinator.ring.membership.PaxosTopologyRepair(coordinator, ring.messaging(),
          forwarding).registerHandlers());
      repair = new io.cassette.coordinator.ring.repair.RepairService(coordinator, ring.messaging(), r::tokenRing)
          .registerHandlers();
      started.add(repair);
      repair.throttle().rate(config.bytes(ConfigKeys.STREAM_THROUGHPUT_OUTBOUND));
      String replace = config.isSet(ConfigKeys.REPLACE_ADDRESS_FIRST_BOOT)
          ? config.string(ConfigKeys.REPLACE_ADDRESS_FIRST_BOOT).trim() : "";
      ring.streaming(repair, coordinator, replace.isEmpty() ? null : InetAddress.getByName(replace));
      front = forwarding;
      // Like Cassandra, the front doors open once the node is part of the ring.
      ring.join(io.cassette.cql.language.NodeInfo.RELEASE_VERSION, cqlPort, respPort);
      // Then, as Cassandra, wait (bounded, once) to hear from the peers: first requests would
      // otherwise find replicas DOWN that are only not heard from yet.
      ring.awaitPeers(Duration.ofSeconds(Math.max(0, config.integer(ConfigKeys.BLOCK_FOR_PEERS_TIMEOUT_IN_SECS))));
    } else {
      coordinator = LocalCoordinator.open(engine, null);
      front = coordinator;
    }

    if (cqlPort != 0) {
      NodeInfo node = ring == null
          ? NodeInfo.singleNode(config.string(ConfigKeys.CLUSTER_NAME), InetAddress.getByName(host), cqlPort,
              identity.hostId(), identity.tokens())
          : new NodeInfo(config.string(ConfigKeys.CLUSTER_NAME), InetAddress.getByName(host),
              InetAddress.getByName(host), cqlPort, identity.hostId(), identity.tokens(),
              ringSettings.dataCenter(), ringSettings.rack(), NodeInfo.RELEASE_VERSION, ring.view());
      io.cassette.cql.language.statements.TombstoneThresholds thresholds = new io.cassette.cql.language.statements.TombstoneThresholds(
          config.integer(ConfigKeys.TOMBSTONE_WARN_THRESHOLD), config.integer(ConfigKeys.TOMBSTONE_FAILURE_THRESHOLD));
      CqlLanguage language = cqlSchema != null ? new CqlLanguage(cqlSchema, node, thresholds)
          : new CqlLanguage(front, node, thresholds);
      cqlLanguage = language;
      if (front instanceof RingCoordinator rc) {
        // The ring honours each table's read_repair and speculative_retry (CQL owns the options).
        rc.readPolicies((ks, t) -> {
          io.cassette.cql.language.schema.TableMetadata m = language.schema().current().table(ks, t);
          return m == null ? io.cassette.coordinator.ring.ReadPolicy.DEFAULT
              : io.cassette.coordinator.ring.ReadPolicy.of(m.options.readRepair(), m.options.speculativeRetry());
        });
      }
      access = language.configureAuth(NodeAuth.settings(config));
      if (config.isSet(ConfigKeys.PREPARED_STATEMENTS_CACHE_SIZE)) {
        language.preparedStatementsCacheSize(config.bytes(ConfigKeys.PREPARED_STATEMENTS_CACHE_SIZE));
      }
      language.userDefinedFunctions(new io.cassette.cql.language.functions.UserFunctions.Settings(
          config.bool(ConfigKeys.USER_DEFINED_FUNCTIONS_ENABLED),
          config.duration(ConfigKeys.USER_DEFINED_FUNCTIONS_FAIL_TIMEOUT).toMillis()));
      language.dynamicDataMasking(config.bool(ConfigKeys.DYNAMIC_DATA_MASKING_ENABLED));
      language.materializedViews(config.bool(ConfigKeys.MATERIALIZED_VIEWS_ENABLED));
      language.resultSizeLimits(resultSizeLimits());
      language.statementLimits(io.cassette.cql.language.parser.StatementLimits.of(
          intOr(ConfigKeys.CQL_MAX_STATEMENT_TOKENS, 0), intOr(ConfigKeys.ITEMS_PER_COLLECTION_FAIL_THRESHOLD, 0),
          intOr(ConfigKeys.CQL_MAX_NESTING_DEPTH, 0)));
      CqlServer cql = new CqlServer(cqlOptions(host, cqlPort, access.authenticator()), language)
          .tls(DoorTls.cql(config));
      if (config.isSet(ConfigKeys.NATIVE_TRANSPORT_MAX_UNREAD_RESPONSE_DATA)) {
        cql.withUnreadAnswersBudget(config.bytes(ConfigKeys.NATIVE_TRANSPORT_MAX_UNREAD_RESPONSE_DATA));
      }
      listening.add("CQL " + format(bind("CQL", ConfigKeys.NATIVE_TRANSPORT_PORT, cql::start)));
      started.add(cql);
      if (ring != null) {
        ring.onRemoteSchemaChange(coordinator.metadata(), language.schema()::announce);
        ring.events(new RingNode.Events() {
          @Override
          public void topologyChanged(String change, Member member) {
            cql.topologyChanged(change, new InetSocketAddress(member.broadcastAddress(), member.nativePort()));
          }

          @Override
          public void statusChanged(String change, Member member) {
            cql.statusChanged(change, new InetSocketAddress(member.broadcastAddress(), member.nativePort()));
          }
        });
      }
    }

    if (respPort != 0 || config.integer(ConfigKeys.TLS_PORT) != 0) {
      RespServerOptions respOptions = respOptions(host, respPort);
      if (ring != null) {
        // A key's node may be a peer: commands wait on messages there, never on the I/O thread.
        respOptions = respOptions.withCommandThread(1);
      }
      RespServer resp = new RespServer(respOptions, front);
      if (config.isSet(ConfigKeys.CLIENT_OUTPUT_BUFFER_LIMIT)) {
        resp.clientOutputBufferLimit(config.string(ConfigKeys.CLIENT_OUTPUT_BUFFER_LIMIT));
      }
      if (config.isSet(ConfigKeys.MAXMEMORY_CLIENTS)) {
        resp.maxmemoryClients(config.bytes(ConfigKeys.MAXMEMORY_CLIENTS));
      }
      resp.consistency(io.cassette.coordinator.ConsistencyLevel.valueOf(
          config.string(ConfigKeys.RESP_CONSISTENCY).toUpperCase(java.util.Locale.ROOT)));
      if (ring != null) {
        resp.ring(ring.messaging()); // each key's commands run on the node that executes its token
      }
      respReplication(resp, ring != null);
      // Redis clients read durability as appendfsync: periodic is everysec, batch is always.
      resp.initialAppendfsync(config.string(ConfigKeys.COMMITLOG_SYNC).equals("periodic") ? "everysec" : "always");
      resp.onAppendfsyncChange(this::appendfsync);
      // Users (ACL SETUSER) persist in the aclfile, by default beside the data.
      resp.aclFile(config.isSet(ConfigKeys.ACLFILE) && !config.string(ConfigKeys.ACLFILE).isEmpty()
          ? Path.of(config.string(ConfigKeys.ACLFILE)) : config.dataDirectory().resolve("users.acl"));
      // Function libraries (FUNCTION LOAD) persist beside the data, as Redis keeps them in its RDB.
      resp.functionsFile(config.dataDirectory().resolve("redis-functions.rdb"));
      io.cassette.tls.TlsAcceptor respTls = DoorTls.redis(config);
      if (respTls != null) {
        resp.tls(respTls, config.integer(ConfigKeys.TLS_PORT), respPort != 0); // port 0: TLS only
      }
      InetSocketAddress respBound = bind("RESP", respPort != 0 ? ConfigKeys.RESP_PORT : ConfigKeys.TLS_PORT, resp::start);
      if (respPort != 0) {
        listening.add("RESP " + format(respBound));
      }
      if (resp.tlsAddress() != null) {
        listening.add("RESP+TLS " + format(resp.tlsAddress()));
      }
      started.add(resp);
    }

    int httpPort = config.integer(ConfigKeys.HTTP_PORT);
    if (httpPort != 0) {
      adminLoop = new NioEventLoopGroup(1, new DefaultThreadFactory("cassette-http", true));
      AdminHttpServer http = new AdminHttpServer(host, httpPort, adminLoop).tls(DoorTls.http(config));
      http.setCredentials(NodeAuth.adminCredentials(config, access));
      if (access != null) {
        NodeAuth.registerEndpoints(http, access);
      }
      http.register("/health", req -> AdminHttpServer.Response.json("{\"status\":\"UP\"}"));
      http.register("/version", req -> AdminHttpServer.Response.json(
          "{\"version\":\"" + Version.get() + "\"}"));
      io.cassette.server.dashboard.Dashboard.register(http, io.cassette.metrics.NodeMetrics.global(), engine, config);
      io.cassette.server.admin.AdminEndpoints.register(http, engine, config, sizing, keyspace -> {
        RingNode rn = ring;
        if (rn == null || coordinator.strategy(keyspace) instanceof io.cassette.coordinator.replication.LocalStrategy) {
          return null;
        }
        // Keeps what this node replicates now and, during a ring change, after it.
        io.cassette.coordinator.ring.TokenRing r = rn.tokenRing();
        io.cassette.coordinator.replication.ReplicationStrategy strategy = coordinator.strategy(keyspace);
        return token -> r.replicas(token, strategy).contains(r.self()) || r.pending(token, strategy).contains(r.self());
      });
      if (ring != null) {
        RingEndpoints.register(http, ring, coordinator,
            () -> cqlLanguage == null ? UUID.nameUUIDFromBytes(new byte[0]) : cqlLanguage.schema().current().version(),
            (key, table) -> RingEndpoints.partitionKey(cqlLanguage == null ? null : cqlLanguage.schema(),
                table[0], table[1], key));
        HintsEndpoints.register(http, ring, ringWrites.hints());
        io.cassette.server.ring.RepairEndpoints.register(http, repair, ring);
        io.cassette.server.ring.MembershipEndpoints.register(http, ring);
      }
      listening.add("HTTP " + format(bind("HTTP", ConfigKeys.HTTP_PORT, http::start)));
      started.add(http);
    }
  }

  /**
   * resp_replication_factor: on a ring, the redis keyspace's factor as the door opens (created
   * or changed in the metadata log); on a single node there is nothing to place, so it is
   * ignored (a factor above 1 there would make every QUORUM request unavailable).
   */
  private void respReplication(RespServer resp, boolean onRing) {
    if (!config.isSet(ConfigKeys.RESP_REPLICATION_FACTOR)) {
      return;
    }
    int rf = config.integer(ConfigKeys.RESP_REPLICATION_FACTOR);
    if (rf < 1) {
      throw new StartException("Invalid value for " + ConfigKeys.RESP_REPLICATION_FACTOR + ": " + rf + " (from "
          + config.source(ConfigKeys.RESP_REPLICATION_FACTOR) + "); expected 1 or more, such as 3");
    }
    if (!onRing) {
      log.info("{} {} ignored: a single node (no seeds) keeps one copy of each Redis key",
          ConfigKeys.RESP_REPLICATION_FACTOR, rf);
      return;
    }
    resp.replicationFactor(rf);
  }

  /** "CQL 127.0.0.1:9042, RESP ..." for the ready line. */
  public String listeningSummary() {
    return listening.isEmpty() ? "no ports (all front doors disabled)" : String.join(", ", listening);
  }

  public Engine engine() {
    return engine;
  }

  /** The CQL language (null before start or with CQL disabled), for tests and tools. */
  public CqlLanguage cqlLanguage() {
    return cqlLanguage;
  }

  /** This node's ring membership, or null for a single node. */
  public RingNode ring() {
    return ring;
  }

  /** The node's coordinator (after {@link #start()}). */
  public LocalCoordinator coordinator() {
    return coordinator;
  }

  /**
   * Bytes a SELECT may collect: pages end at half the frame limit (at most 4 MiB), an unpaged answer
   * fails past coordinator_read_size_fail_threshold, by default the frame limit (it must fit a frame).
   */
  private io.cassette.cql.language.statements.ResultSizeLimits resultSizeLimits() {
    long heap = sizing.heapBytes();
    var limits = io.cassette.cql.language.statements.ResultSizeLimits.forFrame(
        bytesOr(ConfigKeys.NATIVE_TRANSPORT_MAX_FRAME_SIZE, CqlLimits.defaultMaxFrameBytes(heap)));
    return config.isSet(ConfigKeys.COORDINATOR_READ_SIZE_FAIL_THRESHOLD)
        ? limits.withFailBytes(Math.max(1, config.bytes(ConfigKeys.COORDINATOR_READ_SIZE_FAIL_THRESHOLD))) : limits;
  }

  private int intOr(String key, int otherwise) {
    return config.isSet(key) ? config.integer(key) : otherwise;
  }

  /** The CQL door's options: Cassandra's keys where set, else limits derived from the heap. */
  private CqlServerOptions cqlOptions(String host, int port, io.cassette.cql.transport.Authenticator authenticator) {
    long heap = sizing.heapBytes();
    CqlLimits d = CqlLimits.forHeap(heap);
    int maxFrame = (int) bytesOr(ConfigKeys.NATIVE_TRANSPORT_MAX_FRAME_SIZE, CqlLimits.defaultMaxFrameBytes(heap));
    CqlLimits limits = new CqlLimits(
        (int) bytesOr(ConfigKeys.NATIVE_TRANSPORT_MAX_MESSAGE_SIZE, d.maxMessageBytes()),
        (int) bytesOr(ConfigKeys.MAX_VALUE_SIZE, d.maxValueBytes()),
        bytesOr(ConfigKeys.NATIVE_TRANSPORT_MAX_REQUEST_DATA_IN_FLIGHT, d.maxRequestDataInFlight()),
        bytesOr(ConfigKeys.NATIVE_TRANSPORT_MAX_REQUEST_DATA_IN_FLIGHT_PER_IP, d.maxRequestDataInFlightPerIp()),
        config.bool(ConfigKeys.NATIVE_TRANSPORT_THROW_ON_OVERLOAD),
        config.isSet(ConfigKeys.NATIVE_TRANSPORT_MAX_CONCURRENT_CONNECTIONS)
            ? config.integer(ConfigKeys.NATIVE_TRANSPORT_MAX_CONCURRENT_CONNECTIONS) : d.maxConnections(),
        config.isSet(ConfigKeys.NATIVE_TRANSPORT_MAX_CONCURRENT_CONNECTIONS_PER_IP)
            ? config.integer(ConfigKeys.NATIVE_TRANSPORT_MAX_CONCURRENT_CONNECTIONS_PER_IP) : d.maxConnectionsPerIp());
    return new CqlServerOptions(host, port, maxFrame,
        CqlServerOptions.DEFAULT_MAX_CONCURRENT_REQUESTS_PER_CONNECTION, sizing.ioThreads(),
        requestThreads(), authenticator,
        CqlServerOptions.DEFAULT_IDLE_TIMEOUT_SECONDS, limits);
  }

  /** native_transport_max_threads, else the sizing's; a ring's requests wait on replicas, so more. */
  private int requestThreads() {
    if (config.isSet(ConfigKeys.NATIVE_TRANSPORT_MAX_THREADS)) {
      return Math.max(1, config.integer(ConfigKeys.NATIVE_TRANSPORT_MAX_THREADS));
    }
    return ring != null ? Math.max(sizing.requestThreads(), ResourceSizing.MIN_RING_REQUEST_THREADS)
        : sizing.requestThreads();
  }

  private long bytesOr(String key, long derived) {
    return config.isSet(key) ? Math.min(Integer.MAX_VALUE, config.bytes(key)) : derived;
  }

  /**
   * Redis's CONFIG SET appendfsync, applied to the one commit log both front doors share:
   * always is batch; everysec is periodic every second; no is periodic every 30 s (about
   * when Linux writes dirty pages back on its own).
   */
  private void appendfsync(String mode) {
    switch (mode) {
      case "always" -> engine.setCommitLogSync(CommitLogSync.BATCH, config.duration(ConfigKeys.COMMITLOG_SYNC_PERIOD));
      case "everysec" -> engine.setCommitLogSync(CommitLogSync.PERIODIC, Duration.ofSeconds(1));
      case "no" -> engine.setCommitLogSync(CommitLogSync.PERIODIC, Duration.ofSeconds(30));
      default -> log.warn("Ignoring unknown appendfsync '{}'", mode);
    }
    log.info("Commit log now follows appendfsync {} (set through the Redis port)", mode);
  }

  private RespServerOptions respOptions(String host, int port) {
    RespServerOptions options = RespServerOptions.defaults().withHost(host).withPort(port);
    String password = config.string(ConfigKeys.REQUIREPASS);
    if (!password.isEmpty()) {
      options = options.withRequirePass(password);
    }
    options = options.withMaxClients(config.integer(ConfigKeys.MAXCLIENTS));
    if (config.isSet(ConfigKeys.PROTO_MAX_BULK_LEN)) {
      options = options.withLimits(config.bytes(ConfigKeys.PROTO_MAX_BULK_LEN),
          options.maxMultibulkLength());
    }
    if (config.isSet(ConfigKeys.PROTO_MAX_MULTIBULK_LEN)) {
      options = options.withLimits(options.maxBulkLength(),
          Math.max(1, config.integer(ConfigKeys.PROTO_MAX_MULTIBULK_LEN)));
    }
    String socket = config.string(ConfigKeys.UNIXSOCKET);
    if (!socket.isEmpty()) {
      // unixsocketperm is written in octal, as in redis.conf (700 = rwx------).
      options = options.withUnixSocket(Path.of(socket),
          Integer.parseInt(String.valueOf(config.integer(ConfigKeys.UNIXSOCKETPERM)), 8));
    }
    return options;
  }

  private EngineOptions engineOptions() {
    String sync = config.string(ConfigKeys.COMMITLOG_SYNC);
    return new EngineOptions(config.dataFileDirectory(), config.commitLogDirectory(),
        sync.equals("periodic") ? CommitLogSync.PERIODIC : CommitLogSync.BATCH,
        config.duration(ConfigKeys.COMMITLOG_SYNC_PERIOD),
        config.bytes(ConfigKeys.COMMITLOG_SEGMENT_SIZE),
        sizing.commitLogBacklogBytes(), sizing.memtableBytes(),
        config.bytes(ConfigKeys.COMPACTION_THROUGHPUT), sizing.compactionThreads());
  }

  /** Something that binds a port and returns the bound address. */
  private interface Binder {
    InetSocketAddress bind() throws InterruptedException;
  }

  private InetSocketAddress bind(String what, String key, Binder binder) throws InterruptedException {
    try {
      return binder.bind();
    } catch (RuntimeException e) {
      throw new StartException("Cannot listen for " + what + " on "
          + config.string(ConfigKeys.LISTEN_ADDRESS) + ":" + config.integer(key) + " (" + key
          + ", from " + config.source(key) + "): " + reason(e), e);
    }
  }

  /**
   * What a start failure's chain says: a busy port's BindException, else the deepest message.
   * Not the root cause itself: a ring node's Redis door failed with "... null" because the
   * root was the metadata commit's {@code TimeoutException}, which has no message, under
   * "metadata service unavailable: no answer within N ms", which names what happened.
   */
  static String reason(Throwable failure) {
    String deepest = null;
    Throwable root = failure;
    int depth = 0;
    for (Throwable t = failure; t != null && depth++ < 32; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof BindException) {
        return t.getMessage() != null ? t.getMessage() : "address in use";
      }
      if (t.getMessage() != null && !t.getMessage().isBlank()) {
        deepest = t.getMessage();
      }
      root = t;
    }
    return deepest != null ? deepest : root.toString();
  }

  private static String format(InetSocketAddress a) {
    return a.getAddress().getHostAddress() + ":" + a.getPort();
  }

  /** Stops the front doors first so no request reaches a closing engine, then flushes storage. */
  @Override
  public void close() {
    for (int i = started.size() - 1; i >= 0; i--) {
      try {
        started.get(i).close();
      } catch (Exception e) {
        log.warn("Error while stopping {}: {}", started.get(i).getClass().getSimpleName(), e.toString());
      }
    }
    started.clear();
    if (adminLoop != null) {
      adminLoop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
  }

  /** A start failure the operator can fix; its message is printed as is. */
  public static final class StartException extends RuntimeException {
    public StartException(String message) {
      super(message);
    }

    public StartException(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
