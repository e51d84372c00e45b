package io.cassette.cluster.net;

import java.net.InetAddress;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Fault injection in the transport, off unless a rule is added: drop, delay, duplicate or
 * reorder messages by verb and by sending/receiving node, as Cassandra's in-JVM dtests do. Tests
 * and the fault lab use it because this kernel has no {@code tc netem}. Several nodes in one JVM
 * may share one instance ({@link MessagingService#useFilters}), so rules can say "from A to B".
 *
 * <pre>
 * MessageFilters.Rule cut = filters.verbs(Verb.MUTATION_REQ).from(a).to(b).drop();
 * filters.allVerbs().to(c).delay(Duration.ofMillis(300));
 * cut.off();   // or filters.reset()
 * </pre>
 *
 * Rules apply on the sending side, before a message is queued; the first enabled rule that
 * matches decides. Thread-safe; with no rules the cost is one volatile read per message.
 */
public final class MessageFilters {
  /** What a rule does to a message it matches. */
  public enum ActionKind { DROP, DELAY, DUPLICATE, REORDER }

  private final List<Rule> rules = new CopyOnWriteArrayList<>();

  /** Starts a rule for these verbs. */
  public Builder verbs(Verb... verbs) {
    return new Builder(verbs.length == 0 ? EnumSet.allOf(Verb.class) : EnumSet.of(verbs[0], verbs));
  }

  /** Starts a rule for every verb. */
  public Builder allVerbs() {
    return new Builder(EnumSet.allOf(Verb.class));
  }

  /**
   * Rules from a test-fault spec, as the fault lab starts a node with
   * {@code -Dcassette.test_fault.message_filter=SPEC}: comma-separated {@code drop:P},
   * {@code duplicate:P}, {@code delay:MS[:P]}, {@code reorder:MS[:P]} on every verb except the
   * failure detector's PING (heartbeats lost at random would make nodes flap DOWN instead of
   * testing what happens to requests). The first matching rule decides, in the spec's order.
   */
  public void addSpec(String spec) {
    for (String part : spec.split(",")) {
      String[] f = part.trim().split(":");
      if (f[0].isEmpty()) {
        continue;
      }
      EnumSet<Verb> verbs = EnumSet.allOf(Verb.class);
      verbs.remove(Verb.PING_REQ);
      verbs.remove(Verb.PING_RSP);
      Builder b = new Builder(verbs);
      switch (f[0]) {
        case "drop" -> b.probability(Double.parseDouble(f[1])).drop();
        case "duplicate" -> b.probability(Double.parseDouble(f[1])).duplicate();
        case "delay" -> b.probability(f.length > 2 ? Double.parseDouble(f[2]) : 1.0)
            .delay(Duration.ofMillis(Long.parseLong(f[1])));
        case "reorder" -> b.probability(f.length > 2 ? Double.parseDouble(f[2]) : 1.0)
            .reorder(Duration.ofMillis(Long.parseLong(f[1])));
        default -> throw new IllegalArgumentException("message filter '" + part + "': expected drop:P, duplicate:P, "
            + "delay:MS[:P] or reorder:MS[:P]");
      }
    }
  }

  /** Removes every rule. */
  public void reset() {
    rules.clear();
  }

  boolean isEmpty() {
    return rules.isEmpty();
  }

  /** The first matching rule, or null: deliver normally. */
  Rule match(InetAddress from, InetAddress to, Verb verb) {
    for (Rule r : rules) {
      if (r.matches(from, to, verb)) {
        if (r.probability < 1.0 && ThreadLocalRandom.current().nextDouble() >= r.probability) continue;
        r.matched.incrementAndGet();
        return r;
      }
    }
    return null;
  }

  /** A rule under construction: narrow it with from/to/probability, end with an action. */
  public final class Builder {
    private final Set<Verb> verbs;
    private InetAddress from;
    private InetAddress to;
    private double probability = 1.0;

    private Builder(Set<Verb> verbs) {
      this.verbs = verbs;
    }

    /** Only messages sent by this node (its listen address). */
    public Builder from(InetAddress sender) { this.from = sender; return this; }

    /** Only messages sent to this node. */
    public Builder to(InetAddress receiver) { this.to = receiver; return this; }

    /** Apply to each matching message with this probability (random loss, 0..1). */
    public Builder probability(double p) {
      if (p < 0 || p > 1) throw new IllegalArgumentException("probability: " + p + " (expected: 0..1)");
      this.probability = p;
      return this;
    }

    public Rule drop() { return add(ActionKind.DROP, 0); }

    /** Deliver every matching message this much later. */
    public Rule delay(Duration delay) { return add(ActionKind.DELAY, delay.toMillis()); }

    /** Deliver every matching message twice. */
    public Rule duplicate() { return add(ActionKind.DUPLICATE, 0); }

    /** Deliver each matching message after a random delay up to {@code maxDelay}: reorders them. */
    public Rule reorder(Duration maxDelay) { return add(ActionKind.REORDER, maxDelay.toMillis()); }

    private Rule add(ActionKind kind, long millis) {
      Rule r = new Rule(EnumSet.copyOf(verbs), from, to, probability, kind, millis);
      rules.add(r);
      return r;
    }
  }

  /** One installed rule. */
  public final class Rule {
    private final Set<Verb> verbs;
    private final InetAddress from;
    private final InetAddress to;
    private final double probability;
    final ActionKind kind;
    private final long millis;
    private final AtomicLong matched = new AtomicLong();

    private Rule(Set<Verb> verbs, InetAddress from, InetAddress to, double probability, ActionKind kind, long millis) {
      this.verbs = verbs;
      this.from = from;
      this.to = to;
      this.probability = probability;
      this.kind = kind;
      this.millis = millis;
    }

    boolean matches(InetAddress sender, InetAddress receiver, Verb verb) {
      return verbs.contains(verb) && (from == null || from.equals(sender)) && (to == null || to.equals(receiver));
    }

    /** The delay to apply to a message this rule matched (DELAY, REORDER). */
    long delayMillis() {
      return kind == ActionKind.REORDER ? ThreadLocalRandom.current().nextLong(millis + 1) : millis;
    }

    public ActionKind kind() {
      return kind;
    }

    /** Messages this rule has acted on. */
    public long matched() {
      return matched.get();
    }

    /** Removes this rule. */
    public void off() {
      rules.remove(this);
    }
  }
}
