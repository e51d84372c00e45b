package io.cassette.tls;

import io.netty.handler.ssl.SslContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A door's TLS context that follows its files: when a key, certificate or trust file changes
 * (modification time or size), the context is built again and new connections get it;
 * connections already open keep the one they started with. Renewing a certificate therefore
 * needs no restart.
 *
 * <p>The files are looked at when a connection asks for the context, at most once per
 * {@link #CHECK_INTERVAL_NANOS} (one stat per file): no thread of its own, nothing done while
 * no one connects. A change that does not build (a file half written, a wrong password) is
 * logged and the old context kept; the next change is tried again.
 *
 * <p>Thread-safe: any event loop may call {@link #current()}.
 */
public final class ReloadingTlsContext {
  private static final Logger LOG = LoggerFactory.getLogger(ReloadingTlsContext.class);
  /** At most one look at the files per second: cheap next to a TLS handshake. */
  public static final long CHECK_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);

  private final String door;
  private final TlsSettings settings;
  private final boolean server;
  private final LongSupplier nanoClock;
  private volatile SslContext context;
  private volatile List<Stamp> stamps;
  private volatile long lastCheckNanos;
  private volatile long reloads;

  private ReloadingTlsContext(String door, TlsSettings settings, boolean server, LongSupplier nanoClock) {
    this.door = door;
    this.settings = settings;
    this.server = server;
    this.nanoClock = nanoClock;
    this.stamps = stamps(settings.files());
    this.context = build();
    this.lastCheckNanos = nanoClock.getAsLong();
    LOG.info("TLS on the {} ({}): {}", door, server ? "server" : "client", describe());
  }

  /**
   * The context of a server door; fails at once with {@link TlsConfigException} when the files
   * cannot make one, so a misconfigured node does not start.
   *
   * @param door for log lines, e.g. "CQL door", "Redis door", "internode messaging"
   */
  public static ReloadingTlsContext forServer(String door, TlsSettings settings) {
    return new ReloadingTlsContext(door, settings, true, System::nanoTime);
  }

  /** The context of the client side of a door (internode outbound connections, tests). */
  public static ReloadingTlsContext forClient(String door, TlsSettings settings) {
    return new ReloadingTlsContext(door, settings, false, System::nanoTime);
  }

  /** The context for a new connection: rebuilt first if a file changed since the last look. */
  public SslContext current() {
    long now = nanoClock.getAsLong();
    if (now - lastCheckNanos >= CHECK_INTERVAL_NANOS) {
      lastCheckNanos = now;
      reloadIfChanged();
    }
    return context;
  }

  /** Looks at the files now; true when a new context was built from them. */
  public synchronized boolean reloadIfChanged() {
    List<Stamp> now = stamps(settings.files());
    if (now.equals(stamps)) {
      return false;
    }
    stamps = now;
    try {
      context = build();
      reloads++;
      LOG.info("TLS on the {}: files changed, new connections use {}", door, describe());
      return true;
    } catch (RuntimeException e) {
      LOG.warn("TLS on the {}: files changed but cannot be used ({}); keeping the previous "
          + "certificate until they change again", door, e.getMessage());
      return false;
    }
  }

  /** How many times the files were loaded again (tests, status). */
  public long reloads() {
    return reloads;
  }

  public TlsSettings settings() {
    return settings;
  }

  private SslContext build() {
    return server ? TlsContextBuilder.server(settings) : TlsContextBuilder.client(settings);
  }

  private String describe() {
    try {
      return TlsContextBuilder.describe(settings);
    } catch (RuntimeException e) {
      return e.getMessage();
    }
  }

  private static List<Stamp> stamps(List<Path> files) {
    List<Stamp> out = new ArrayList<>(files.size());
    for (Path p : files) {
      try {
        BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
        out.add(new Stamp(p, a.lastModifiedTime().to(TimeUnit.NANOSECONDS), a.size()));
      } catch (IOException e) {
        out.add(new Stamp(p, -1, -1));
      }
    }
    return out;
  }

  private record Stamp(Path file, long modifiedNanos, long size) {
    Stamp {
      Objects.requireNonNull(file);
    }
  }
}
