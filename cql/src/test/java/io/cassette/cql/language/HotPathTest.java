package io.cassette.cql.language;

import io.cassette.cql.Consistency;
import io.cassette.cql.QueryOptions;
import io.cassette.cql.Result;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Prepared INSERT/SELECT throughput of the language alone (no network): a figure, not a gate. */
@Tag("slow")
class HotPathTest {
  @TempDir
  Path dir;

  @Test
  void preparedWritesAndReads() {
    try (LanguageFixture f = new LanguageFixture(dir)) {
      f.run("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
      f.run("CREATE TABLE ks.standard1 (key blob PRIMARY KEY, \"C0\" blob, \"C1\" blob, \"C2\" blob, \"C3\" blob, \"C4\" blob)");
      Result.Prepared ins = f.cql.prepare("UPDATE ks.standard1 SET \"C0\" = ?,\"C1\" = ?,\"C2\" = ?,\"C3\" = ?,\"C4\" = ? WHERE KEY=?", null, f.state);
      Result.Prepared sel = f.cql.prepare("SELECT \"C0\",\"C1\",\"C2\",\"C3\",\"C4\" FROM ks.standard1 WHERE KEY=?", null, f.state);
      ByteBuffer v = ByteBuffer.wrap(new byte[34]);
      int n = 100_000;
      for (int round = 0; round < 2; round++) {
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
          ByteBuffer key = ByteBuffer.wrap(Integer.toString(i).getBytes());
          f.cql.execute(ins.id(), null, opts(List.of(v, v, v, v, v, key)), f.state);
        }
        long t1 = System.nanoTime();
        for (int i = 0; i < n; i++) {
          ByteBuffer key = ByteBuffer.wrap(Integer.toString(i).getBytes());
          f.cql.execute(sel.id(), null, opts(List.of(key)), f.state);
        }
        long t2 = System.nanoTime();
        System.out.printf("round %d: writes %.0f/s, reads %.0f/s%n", round, n / ((t1 - t0) / 1e9), n / ((t2 - t1) / 1e9));
      }
    }
  }

  static QueryOptions opts(List<ByteBuffer> values) {
    return new QueryOptions(Consistency.LOCAL_ONE, values, null, true, 5000, null, Consistency.SERIAL,
        Long.MIN_VALUE, null, Integer.MIN_VALUE, 5);
  }
}
