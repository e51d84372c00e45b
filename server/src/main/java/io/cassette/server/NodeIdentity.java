package io.cassette.server;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.UUID;

/**
 * Who this node is, kept across restarts: its host id and its ring tokens, chosen at first
 * start as Cassandra does (random tokens) and stored in {@code <data>/node-identity.properties}.
 * Drivers key their view of the cluster on the host id; changing it on restart would make
 * them see a new node.
 */
public record NodeIdentity(UUID hostId, List<Long> tokens) {
  static final String FILE_NAME = "node-identity.properties";
  /** Written into the file; a file with another format version is refused, not guessed. */
  static final String FORMAT_VERSION = "1";

  public NodeIdentity {
    tokens = List.copyOf(tokens);
  }

  /** Reads the identity in {@code dataDirectory}, or creates one with {@code numTokens} tokens. */
  public static NodeIdentity loadOrCreate(Path dataDirectory, int numTokens) {
    Path file = dataDirectory.resolve(FILE_NAME);
    try {
      if (Files.exists(file)) {
        return read(file);
      }
      NodeIdentity created = random(numTokens);
      created.write(dataDirectory, file);
      return created;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read or write " + file, e);
    }
  }

  /**
   * The same host id with {@code ringTokens} (the ring allocated them), written to
   * {@code dataDirectory} so system.local and a later single-node start report them too.
   */
  public NodeIdentity withTokensSaved(Path dataDirectory, List<Long> ringTokens) {
    NodeIdentity updated = new NodeIdentity(hostId, ringTokens.stream().sorted().toList());
    if (updated.equals(this)) {
      return this;
    }
    try {
      updated.write(dataDirectory, dataDirectory.resolve(FILE_NAME));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write " + dataDirectory.resolve(FILE_NAME), e);
    }
    return updated;
  }

  private static NodeIdentity random(int numTokens) {
    if (numTokens < 1) {
      throw new IllegalArgumentException("num_tokens must be at least 1, not " + numTokens);
    }
    SecureRandom random = new SecureRandom();
    List<Long> tokens = new ArrayList<>();
    while (tokens.size() < numTokens) {
      long t = random.nextLong();
      if (t != Long.MIN_VALUE && !tokens.contains(t)) { // MIN_VALUE is the partitioner's minimum, never a token
        tokens.add(t);
      }
    }
    Collections.sort(tokens);
    return new NodeIdentity(UUID.randomUUID(), tokens);
  }

  private static NodeIdentity read(Path file) throws IOException {
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      p.load(r);
    }
    String format = p.getProperty("format");
    if (!FORMAT_VERSION.equals(format)) {
      throw new IllegalStateException(file + ": format version " + format + " is not "
          + FORMAT_VERSION + "; this release cannot read it");
    }
    List<Long> tokens = new ArrayList<>();
    for (String t : p.getProperty("tokens", "").split(",")) {
      if (!t.isBlank()) {
        tokens.add(Long.parseLong(t.trim()));
      }
    }
    return new NodeIdentity(UUID.fromString(p.getProperty("host_id")), tokens);
  }

  /** Temp file, fsync, rename, directory fsync: a crash leaves the old file or the new one. */
  private void write(Path dataDirectory, Path file) throws IOException {
    Files.createDirectories(dataDirectory);
    Path tmp = dataDirectory.resolve(FILE_NAME + ".tmp");
    StringBuilder tokenList = new StringBuilder();
    for (Long t : tokens) {
      tokenList.append(tokenList.length() == 0 ? "" : ",").append(t);
    }
    try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
      w.write("# Cassette node identity: do not edit or copy to another node.\n");
      w.write("format=" + FORMAT_VERSION + "\nhost_id=" + hostId + "\ntokens=" + tokenList + "\n");
    }
    try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
      ch.force(true);
    }
    Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    try (FileChannel dir = FileChannel.open(dataDirectory, StandardOpenOption.READ)) {
      dir.force(true);
    } catch (IOException ignored) {
      // some platforms cannot open a directory for fsync; the rename is still atomic
    }
  }
}
