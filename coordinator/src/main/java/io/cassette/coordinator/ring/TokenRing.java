package io.cassette.coordinator.ring;

import io.cassette.coordinator.replication.LocalStrategy;
import io.cassette.coordinator.replication.ReplicationStrategy;
import io.cassette.coordinator.replication.Topology;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * An immutable snapshot of the ring as one node sees it at one metadata epoch: the members
 * with their data centre, rack and tokens, and which of them the failure detector holds alive.
 * Placement is Cassandra's Murmur3 ring: the primary replica of a token is the node owning
 * the first token {@code >=} it, clockwise, wrapping after {@link Long#MAX_VALUE}.
 *
 * <p>Built by whoever follows the metadata log and the failure detector (the server); the
 * {@link RingCoordinator} only reads the latest snapshot. A ring with no tokens yet (a single
 * node that has not joined) puts every token on {@link #self()}.
 */
public final class TokenRing {
  /** A node's place: where it is and which tokens it holds. */
  public record Member(Endpoint endpoint, String datacenter, String rack, List<Long> tokens) {}

  /** A primary range of the ring and the node that owns it. */
  public record Owned(Range range, Endpoint owner) {}

  private final long epoch;
  private final Endpoint self;
  private final Map<Endpoint, Member> members;
  private final Set<Endpoint> down;
  private final long[] tokens;       // sorted
  private final Endpoint[] owners;   // owners[i] holds tokens[i]
  private final List<Owned> inTokenOrder;
  private final Topology topology;
  /** The ring once the change in progress finishes (a join, leave or replace), or null. */
  private final TokenRing future;

  private TokenRing(Builder b) {
    this.future = b.future;
    this.epoch = b.epoch;
    this.self = b.self;
    this.members = Collections.unmodifiableMap(new LinkedHashMap<>(b.members));
    this.down = Set.copyOf(b.down);
    TreeMap<Long, Endpoint> byToken = new TreeMap<>();
    for (Member m : members.values()) {
      for (long t : m.tokens()) {
        Endpoint prev = byToken.put(t, m.endpoint());
        if (prev != null && !prev.equals(m.endpoint())) {
          throw new IllegalArgumentException("token " + t + " held by both " + prev + " and " + m.endpoint());
        }
      }
    }
    this.tokens = new long[byToken.size()];
    this.owners = new Endpoint[byToken.size()];
    int i = 0;
    for (Map.Entry<Long, Endpoint> e : byToken.entrySet()) {
      tokens[i] = e.getKey();
      owners[i++] = e.getValue();
    }
    this.inTokenOrder = List.copyOf(segments());
    this.topology = buildTopology();
  }

  public static Builder builder(long epoch, Endpoint self) {
    return new Builder(epoch, self);
  }

  /** The metadata epoch this snapshot was built at. */
  public long epoch() {
    return epoch;
  }

  /** This node. */
  public Endpoint self() {
    return self;
  }

  /** The members (with tokens, data centre and rack), in the order they were added. */
  public Collection<Member> members() {
    return members.values();
  }

  public Member member(Endpoint e) {
    return members.get(e);
  }

  /** The member with this internode address, or null. */
  public Endpoint endpoint(java.net.InetAddress address) {
    for (Endpoint e : members.keySet()) {
      if (e.address().equals(address)) {
        return e;
      }
    }
    return self.address().equals(address) ? self : null;
  }

  /** The failure detector's view: UP unless marked down (the node itself always counts). */
  public boolean isAlive(Endpoint e) {
    return !down.contains(e);
  }

  /** The primary replica of {@code token}: the owner of the first ring token {@code >= token}. */
  public Endpoint owner(long token) {
    if (tokens.length == 0) {
      return self;
    }
    return owners[ceilingIndex(token)];
  }

  /**
   * The replicas of {@code token} under {@code strategy}, primary first, in ring-walk order.
   * Node-local keyspaces ({@link LocalStrategy}) are on this node only; SimpleStrategy takes the
   * next {@code replication_factor} distinct nodes clockwise; NetworkTopologyStrategy the next
   * nodes of each data centre up to its factor, spread over racks as Cassandra does
   * ({@link ReplicaPlacement}).
   */
  public List<Endpoint> replicas(long token, ReplicationStrategy strategy) {
    if (strategy instanceof LocalStrategy || tokens.length == 0) {
      return List.of(self);
    }
    return ReplicaPlacement.replicas(tokens, owners, ceilingIndex(token), strategy, members);
  }

  /**
   * The ring once the ring change in progress finishes, or null when none is in progress.
   * Between START and FINISH writes go to both (Cassandra's pending ranges); reads use this ring.
   */
  public TokenRing future() {
    return future;
  }

  /**
   * The nodes that will replicate {@code token} once the change in progress finishes and do
   * not now (a joining node, a leaving node's successor, a replacement): writes go to them as
   * well, and each one raises the number of acknowledgements needed, as in Cassandra, so an
   * acknowledged write is on a quorum of the new replicas too. Empty when no change is in progress.
   */
  public List<Endpoint> pending(long token, ReplicationStrategy strategy) {
    if (future == null || strategy instanceof LocalStrategy || tokens.length == 0) {
      return List.of();
    }
    List<Endpoint> now = replicas(token, strategy);
    List<Endpoint> out = null;
    for (Endpoint e : future.replicas(token, strategy)) {
      if (!now.contains(e)) {
        if (out == null) {
          out = new ArrayList<>(2);
        }
        out.add(e);
      }
    }
    return out == null ? List.of() : out;
  }

  /** The replicas of a primary range {@code (start, end]}: those of its end token. */
  public List<Endpoint> replicas(Range range, ReplicationStrategy strategy) {
    return replicas(range.end(), strategy);
  }

  /** The primary ranges {@code e} owns, in token order (empty for a node without tokens). */
  public List<Range> ranges(Endpoint e) {
    List<Range> out = new ArrayList<>();
    for (Owned o : inTokenOrder) {
      if (o.owner().equals(e)) {
        out.add(o.range());
      }
    }
    return out;
  }

  /** The whole ring as primary ranges in token order, from the minimum token to the maximum. */
  public List<Owned> rangesInTokenOrder() {
    return inTokenOrder;
  }

  /** Nodes and live nodes per data centre, seen from this node, for the consistency checks. */
  public Topology topology() {
    return topology;
  }

  /** The data centre of {@code e} (this node's when it is not a member yet). */
  public String datacenter(Endpoint e) {
    Member m = members.get(e);
    return m != null ? m.datacenter() : topology.localDatacenter();
  }

  // ------------------------------------------------------------------ helpers

  /** Index of the first token {@code >= token}, wrapping to 0 past the last. */
  private int ceilingIndex(long token) {
    int i = Arrays.binarySearch(tokens, token);
    if (i < 0) {
      i = -i - 1;
    }
    return i == tokens.length ? 0 : i;
  }

  private List<Owned> segments() {
    List<Owned> out = new ArrayList<>();
    if (tokens.length == 0) {
      out.add(new Owned(new Range(Long.MIN_VALUE, Long.MAX_VALUE), self));
      return out;
    }
    long start = Long.MIN_VALUE;
    for (int i = 0; i < tokens.length; i++) {
      if (tokens[i] > start) {
        out.add(new Owned(new Range(start, tokens[i]), owners[i]));
      }
      start = tokens[i];
    }
    if (start < Long.MAX_VALUE) {
      out.add(new Owned(new Range(start, Long.MAX_VALUE), owners[0])); // wraps to the first token
    }
    return out;
  }

  private Topology buildTopology() {
    Member mine = members.get(self);
    String localDc = mine != null ? mine.datacenter() : Topology.DEFAULT_DATACENTER;
    Map<String, Integer> nodes = new HashMap<>();
    Map<String, Integer> live = new HashMap<>();
    for (Member m : members.values()) {
      nodes.merge(m.datacenter(), 1, Integer::sum);
      if (isAlive(m.endpoint())) {
        live.merge(m.datacenter(), 1, Integer::sum);
      }
    }
    if (mine == null) { // not a member yet: it still counts itself, as a single node does
      nodes.merge(localDc, 1, Integer::sum);
      live.merge(localDc, 1, Integer::sum);
    }
    return new Topology(localDc, nodes, live);
  }

  @Override
  public String toString() {
    return "TokenRing{epoch=" + epoch + ", self=" + self + ", members=" + members.size()
        + ", tokens=" + tokens.length + ", down=" + down + (future != null ? ", changing" : "") + "}";
  }

  /** Collects members, tokens and liveness; {@link #build()} makes the snapshot. */
  public static final class Builder {
    private final long epoch;
    private final Endpoint self;
    private final Map<Endpoint, Member> members = new LinkedHashMap<>();
    private final Set<Endpoint> down = new java.util.HashSet<>();
    private TokenRing future;

    private Builder(long epoch, Endpoint self) {
      this.epoch = epoch;
      this.self = Objects.requireNonNull(self, "self");
    }

    /** Adds (or replaces) a member with its tokens. */
    public Builder add(Endpoint e, String datacenter, String rack, Collection<Long> tokens) {
      String dc = datacenter == null || datacenter.isBlank() ? Topology.DEFAULT_DATACENTER : datacenter;
      String r = rack == null || rack.isBlank() ? "rack1" : rack;
      members.put(e, new Member(e, dc, r, List.copyOf(tokens)));
      return this;
    }

    /** Marks a node UP or DOWN (default UP); the node itself is never marked down. */
    public Builder alive(Endpoint e, boolean up) {
      if (up || e.equals(self)) {
        down.remove(e);
      } else {
        down.add(e);
      }
      return this;
    }

    /** The ring once the change in progress finishes (see {@link TokenRing#pending}). */
    public Builder future(TokenRing ring) {
      this.future = ring;
      return this;
    }

    public TokenRing build() {
      return new TokenRing(this);
    }
  }
}
