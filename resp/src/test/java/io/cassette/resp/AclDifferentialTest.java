package io.cassette.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.cassette.resp.testing.RawClient;
import io.cassette.resp.testing.RealRedis;
import io.cassette.resp.testing.TestServer;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ACL commands against a real Redis 7.0 and Cassette, byte for byte: rule texts as ACL LIST
 * and GETUSER rebuild them, every SETUSER error text, CAT, DELUSER, WHOAMI, AUTH failures and
 * NOPERM replies. Skipped without redis-server.
 */
class AclDifferentialTest {
  @TempDir Path dir;

  private static final String SCRIPT = """
      ACL LIST
      ACL GETUSER default
      ACL SETUSER alice on >pw1 ~app:* +@all -@write &chan*
      ACL LIST
      ACL GETUSER alice
      ACL SETUSER bob +get +set -@all +@read
      ACL LIST
      ACL SETUSER bob on >bobpw ~* +set +get +set
      ACL LIST
      ACL SETUSER x +foo
      ACL SETUSER x +@foo
      ACL SETUSER x bogus
      ACL SETUSER x <nothere
      ACL SETUSER x #abc
      ACL SETUSER x ~a allkeys ~b
      ACL SETUSER x resetkeys %X~a
      ACL SETUSER x &a allchannels &b
      ACL SETUSER carl on nopass allkeys allchannels allcommands -flushall %R~r:*
      ACL GETUSER nonexist
      ACL DELUSER default
      ACL CAT nosuch
      ACL GENPASS 0
      ACL GENPASS abc
      ACL GENPASS 4097
      ACL WHOAMI extra
      ACL FOO
      ACL SETUSER x on >p ~* +@all -@dangerous +client|id -debug
      ACL LIST
      ACL SETUSER y +client
      ACL SETUSER z -@all +@hash +@string -hset
      ACL LIST
      ACL SETUSER x reset
      ACL LIST
      ACL SETUSER x on nopass %R~r:* %W~w:* %RW~b:* +@all
      ACL LIST
      ACL GETUSER x
      ACL SETUSER default resetpass >secret
      ACL GETUSER default
      ACL SETUSER default nopass
      ACL CAT
      ~ACL CAT pubsub
      ~ACL CAT dangerous
      ACL DELUSER alice bob nobody
      ACL USERS
      ACL WHOAMI
      AUTH nobody pw
      AUTH y wrong
      AUTH x anything
      ACL WHOAMI
      SET r:1 v
      GET r:1
      SET w:1 v
      GET w:1
      SET b:1 v
      GET b:1
      FLUSHALL
      AUTH z wrong
      ACL LOG RESET
      ACL LOG
      """;

  @Test
  void sameRepliesAsRedis7() throws Exception {
    assumeTrue(RealRedis.available(), "redis-server not installed");
    try (TestServer cassette = TestServer.start(dir.resolve("cassette"));
         RealRedis redis = new RealRedis(dir.resolve("redis"));
         RawClient a = new RawClient(cassette.address);
         RawClient b = new RawClient(redis.address)) {
      int lineNo = 0;
      for (String raw : SCRIPT.split("\n")) {
        lineNo++;
        String line = raw.strip();
        if (line.isEmpty()) {
          continue;
        }
        boolean unordered = line.startsWith("~");
        String[] args = DifferentialTest.split(unordered ? line.substring(1) : line);
        a.command(args);
        b.command(args);
        String mine = a.reply();
        String theirs = b.reply();
        if (unordered) {
          mine = String.join(",", new java.util.TreeSet<>(java.util.List.of(mine.split("\r\n"))));
          theirs = String.join(",", new java.util.TreeSet<>(java.util.List.of(theirs.split("\r\n"))));
        }
        assertThat(mine).as("line %d: %s", lineNo, line).isEqualTo(theirs);
      }
    }
  }
}
