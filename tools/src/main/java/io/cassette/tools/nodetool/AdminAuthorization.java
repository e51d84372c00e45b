package io.cassette.tools.nodetool;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;

/**
 * The credential nodetool sends to the admin port, from Cassandra's nodetool options:
 * {@code -u/--username} with {@code -pw/--password}, or {@code -pwf/--password-file} (lines of
 * {@code username password}, as a JMX password file; the line of {@code -u}, or the first);
 * else the token in {@value #TOKEN_VARIABLE} (the variable the node reads admin_http_token from).
 */
final class AdminAuthorization {
  static final String TOKEN_VARIABLE = "CASSETTE_ADMIN_HTTP_TOKEN";

  private AdminAuthorization() {}

  /** The Authorization header value, or null for none. */
  static String header(String username, String password, String passwordFile, String token) {
    if (passwordFile != null && password == null) {
      String[] entry = fromFile(Path.of(passwordFile), username);
      username = entry[0];
      password = entry[1];
    }
    if (username != null) {
      if (password == null) {
        throw new NodetoolException("-u " + username + " needs a password: -pw PASSWORD or -pwf FILE");
      }
      return "Basic " + Base64.getEncoder().encodeToString((username + ":" + password).getBytes(StandardCharsets.UTF_8));
    }
    if (password != null) {
      throw new NodetoolException("-pw needs a user name: -u USER");
    }
    return token == null || token.isEmpty() ? null : "Bearer " + token;
  }

  private static String[] fromFile(Path file, String username) {
    List<String> lines;
    try {
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new NodetoolException("Cannot read the password file " + file + ": " + e.getMessage());
    }
    for (String line : lines) {
      String l = line.trim();
      if (l.isEmpty() || l.startsWith("#")) {
        continue;
      }
      String[] parts = l.split("\\s+", 2);
      if (parts.length == 2 && (username == null || parts[0].equals(username))) {
        return parts;
      }
    }
    throw new NodetoolException("No " + (username == null ? "entry" : "entry for " + username)
        + " in the password file " + file);
  }
}
