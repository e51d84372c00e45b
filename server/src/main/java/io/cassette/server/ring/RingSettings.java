package io.cassette.server.ring;

import io.cassette.server.config.Config;
import io.cassette.server.config.ConfigKeys;
import io.cassette.server.CassetteNode.StartException;
import java.io.IOException;
import java.io.Reader;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * The ring's part of the configuration, resolved once: seeds, ports, the metadata service's
 * members, this node's data centre and rack, the failure detector. A node without seeds is a
 * single node and needs none of it.
 *
 * @param seeds          seed_provider's hosts (ports, if written, are dropped: every node
 *                       uses its own storage_port)
 * @param members        the metadata service, "host:metadata_port" each: metadata_service_members,
 *                       else the first {@link #DEFAULT_MEMBERS} seeds
 * @param allocateTokensForRf allocate_tokens_for_local_replication_factor: the replication factor
 *                       a joining node's tokens balance ownership for (1: primary ranges only)
 */
public record RingSettings(String clusterName, InetAddress listenAddress, int storagePort, int metadataPort,
                           List<InetAddress> seeds, List<String> members, String dataCenter, String rack,
                           int numTokens, double phiConvictThreshold, Duration heartbeatInterval,
                           int allocateTokensForRf) {
  /** One or three members suit a board ring; more only slow every commit. */
  public static final int DEFAULT_MEMBERS = 3;
  public static final String DEFAULT_DATA_CENTER = "datacenter1";
  public static final String DEFAULT_RACK = "rack1";
  /** GossipingPropertyFileSnitch's file, looked for beside the configuration file. */
  public static final String RACKDC_FILE = "cassandra-rackdc.properties";

  public RingSettings {
    seeds = List.copyOf(seeds);
    members = List.copyOf(members);
  }

  /** True when the node is part of a ring (it has seeds). */
  public boolean isRing() {
    return !seeds.isEmpty();
  }

  /**
   * @param confDirectory where conf/cassette.yaml lives (for cassandra-rackdc.properties), or null
   */
  public static RingSettings from(Config config, Path confDirectory) {
    String listen = config.string(ConfigKeys.LISTEN_ADDRESS);
    InetAddress listenAddress = address(listen, ConfigKeys.LISTEN_ADDRESS, config);
    List<InetAddress> seeds = new ArrayList<>();
    for (String s : config.string(ConfigKeys.SEED_PROVIDER).split(",")) {
      String host = stripPort(s.trim());
      if (!host.isEmpty()) {
        InetAddress a = address(host, ConfigKeys.SEED_PROVIDER, config);
        if (!seeds.contains(a)) {
          seeds.add(a);
        }
      }
    }
    int metadataPort = config.integer(ConfigKeys.METADATA_PORT);
    List<String> members = new ArrayList<>();
    if (config.isSet(ConfigKeys.METADATA_SERVICE_MEMBERS)) {
      for (String m : config.list(ConfigKeys.METADATA_SERVICE_MEMBERS)) {
        String host = stripPort(m.trim());
        int port = host.equals(m.trim()) ? metadataPort : Integer.parseInt(m.trim().substring(m.trim().lastIndexOf(':') + 1));
        members.add(address(host, ConfigKeys.METADATA_SERVICE_MEMBERS, config).getHostAddress() + ":" + port);
      }
    } else {
      for (InetAddress s : seeds.subList(0, Math.min(DEFAULT_MEMBERS, seeds.size()))) {
        members.add(s.getHostAddress() + ":" + metadataPort);
      }
      if (members.isEmpty()) {
        members.add(listenAddress.getHostAddress() + ":" + metadataPort);
      }
    }
    Properties rackdc = rackdc(confDirectory);
    String dc = config.isSet(ConfigKeys.DC) ? config.string(ConfigKeys.DC)
        : rackdc.getProperty("dc", DEFAULT_DATA_CENTER).trim();
    String rack = config.isSet(ConfigKeys.RACK) ? config.string(ConfigKeys.RACK)
        : rackdc.getProperty("rack", DEFAULT_RACK).trim();
    double phi;
    try {
      phi = Double.parseDouble(config.string(ConfigKeys.PHI_CONVICT_THRESHOLD));
      if (!(phi > 0)) {
        throw new NumberFormatException();
      }
    } catch (NumberFormatException e) {
      throw new StartException("Invalid value for phi_convict_threshold: '"
          + config.string(ConfigKeys.PHI_CONVICT_THRESHOLD) + "' (from "
          + config.source(ConfigKeys.PHI_CONVICT_THRESHOLD) + "); expected a positive number such as 8");
    }
    return new RingSettings(config.string(ConfigKeys.CLUSTER_NAME), listenAddress,
        config.integer(ConfigKeys.STORAGE_PORT), metadataPort, seeds, members, dc, rack,
        config.integer(ConfigKeys.NUM_TOKENS), phi, config.duration(ConfigKeys.HEARTBEAT_INTERVAL),
        allocationRf(config));
  }

  private static int allocationRf(Config config) {
    int rf = config.integer(ConfigKeys.ALLOCATE_TOKENS_FOR_LOCAL_REPLICATION_FACTOR);
    if (rf < 1) {
      throw new StartException("Invalid value for allocate_tokens_for_local_replication_factor: " + rf + " (from "
          + config.source(ConfigKeys.ALLOCATE_TOKENS_FOR_LOCAL_REPLICATION_FACTOR) + "); expected 1 or more, such as 3");
    }
    return rf;
  }

  /** "10.0.0.1:7000" -> "10.0.0.1"; IPv6 literals keep their colons ("[::1]:7000" -> "::1"). */
  static String stripPort(String hostAndPort) {
    if (hostAndPort.startsWith("[")) {
      int end = hostAndPort.indexOf(']');
      return end < 0 ? hostAndPort : hostAndPort.substring(1, end);
    }
    int colon = hostAndPort.indexOf(':');
    return colon >= 0 && colon == hostAndPort.lastIndexOf(':') ? hostAndPort.substring(0, colon) : hostAndPort;
  }

  private static InetAddress address(String host, String key, Config config) {
    try {
      return InetAddress.getByName(host);
    } catch (UnknownHostException e) {
      throw new StartException("Cannot resolve '" + host + "' in " + key + " (from " + config.source(key) + ")");
    }
  }

  /** The snitch file beside the configuration, or under cassette.home/conf; empty if none. */
  private static Properties rackdc(Path confDirectory) {
    Properties p = new Properties();
    List<Path> candidates = new ArrayList<>();
    if (confDirectory != null) {
      candidates.add(confDirectory.resolve(RACKDC_FILE));
    }
    String home = System.getProperty("cassette.home");
    if (home != null) {
      candidates.add(Path.of(home, "conf", RACKDC_FILE));
    }
    for (Path file : candidates) {
      if (Files.isRegularFile(file)) {
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
          p.load(r);
          return p;
        } catch (IOException e) {
          throw new StartException("Cannot read " + file + ": " + e);
        }
      }
    }
    return p;
  }
}
