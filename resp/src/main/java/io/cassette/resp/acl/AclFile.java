package io.cassette.resp.acl;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Redis's ACL file ({@code aclfile}): one {@code user NAME RULES...} line per user, the rules
 * as ACL LIST prints them (passwords as {@code #sha256}); blank lines and {@code #} comments
 * are skipped. Written whole to a temporary file, fsynced and renamed, so a crash leaves the
 * old file or the new one.
 */
public final class AclFile {
  private AclFile() {}

  /** The users in {@code file}; an error names the file and line, as Redis's ACL LOAD does. */
  public static Map<String, AclUser> read(Path file) throws IOException {
    Map<String, AclUser> users = new LinkedHashMap<>();
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).trim();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      String where = file + ":" + (i + 1) + ": ";
      String[] words = line.split("\\s+");
      if (!words[0].equals("user") || words.length < 2) {
        throw new IOException(where + "should start with user keyword");
      }
      String name = words[1];
      if (users.containsKey(name)) {
        throw new IOException(where + "Duplicate user '" + name + "' found");
      }
      AclUser u = new AclUser(name);
      for (String rule : Arrays.copyOfRange(words, 2, words.length)) {
        try {
          u.apply(rule);
        } catch (AclRuleException e) {
          throw new IOException(where + e.getMessage() + ". ");
        }
      }
      users.put(name, u);
    }
    return users;
  }

  public static void write(Path file, Iterable<AclUser> users) throws IOException {
    List<String> lines = new ArrayList<>();
    for (AclUser u : users) {
      lines.add("user " + u.name + " " + u.describe());
    }
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.write(tmp, lines, StandardCharsets.UTF_8);
    try (var ch = java.nio.channels.FileChannel.open(tmp, java.nio.file.StandardOpenOption.WRITE)) {
      ch.force(true);
    }
    try {
      Files.setPosixFilePermissions(tmp, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
    } catch (UnsupportedOperationException e) {
      // not a POSIX file system
    }
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }
}
