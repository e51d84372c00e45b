package io.cassette.cql.language;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.cql.Consistency;
import io.cassette.cql.QueryOptions;
import io.cassette.cql.Result;
import io.cassette.storage.Table;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Storage-attached indexes answered by storage's own index (memtable postings, SSTable
 * components) checked against the same queries with ALLOW FILTERING on an unindexed copy of
 * the table: data spread over memtable, flushed and compacted SSTables, overwrites, deletes,
 * TTLs, collections, several indexes combined, paging, token ranges, a restart, and DROP INDEX.
 */
class StorageAttachedIndexTest {
  @TempDir
  Path dir;

  private static final String[] QUERIES = {
      "SELECT * FROM %s WHERE n = 7",
      "SELECT * FROM %s WHERE n >= 10 AND n < 30",
      "SELECT * FROM %s WHERE n > 95",
      "SELECT * FROM %s WHERE t = 'w3'",
      "SELECT * FROM %s WHERE ts < '2020-01-01 00:00:40+0000'",
      "SELECT * FROM %s WHERE n < 60 AND t = 'w1'",
      "SELECT * FROM %s WHERE n <= 50 AND ts >= '2020-01-01 00:00:20+0000' AND t = 'w2'",
      "SELECT * FROM %s WHERE tags CONTAINS 'x2'",
      "SELECT * FROM %s WHERE attrs CONTAINS KEY 'k1'",
      "SELECT * FROM %s WHERE attrs CONTAINS 3",
      "SELECT * FROM %s WHERE tags CONTAINS 'x1' AND n > 20",
      "SELECT * FROM %s WHERE token(p) > 0 AND n < 50",
      "SELECT * FROM %s WHERE token(p) <= -1000 AND token(p) > -6000000000000000000 AND t = 'w0'",
      "SELECT * FROM %s WHERE p = 3 AND n < 50",
  };

  @Test
  void indexAnswersEqualFilteredScans() throws Exception {
    try (LanguageFixture f = new LanguageFixture(dir)) {
      f.run("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
      for (String table : List.of("t", "u")) {
        f.run("CREATE TABLE ks." + table + " (p int, c int, n int, t text, ts timestamp, tags set<text>,"
            + " attrs map<text, int>, PRIMARY KEY (p, c))");
      }
      // indexes over data that is already there (built from the memtable and an SSTable)
      Random random = new Random(22);
      write(f, random, 0, 150);
      flush(f, "t");
      write(f, random, 150, 300);
      f.run("CREATE INDEX n_idx ON ks.t (n) USING 'sai'");
      f.run("CREATE INDEX t_idx ON ks.t (t) USING 'sai'");
      f.run("CREATE CUSTOM INDEX ts_idx ON ks.t (ts) USING 'StorageAttachedIndex'");
      f.run("CREATE INDEX tags_idx ON ks.t (tags) USING 'sai'");
      f.run("CREATE INDEX keys_idx ON ks.t (keys(attrs)) USING 'sai'");
      f.run("CREATE INDEX values_idx ON ks.t (values(attrs)) USING 'sai'");
      assertThat(components(dir)).as("SAI components of the flushed SSTable").hasSize(6);
      compare(f, "built over existing data");

      // new writes, overwrites and deletes spread over several SSTables and the memtable
      write(f, random, 0, 100);
      flush(f, "t");
      for (int i = 0; i < 40; i++) {
        int p = random.nextInt(12);
        int c = random.nextInt(30);
        for (String table : List.of("t", "u")) {
          f.run("DELETE FROM ks." + table + " WHERE p = " + p + " AND c = " + c);
        }
      }
      for (String table : List.of("t", "u")) {
        f.run("DELETE FROM ks." + table + " WHERE p = 5");
        f.run("UPDATE ks." + table + " SET n = 1000, tags = tags - {'x2'} WHERE p = 6 AND c = 3");
      }
      flush(f, "t");
      write(f, random, 200, 260);
      compare(f, "memtable and three SSTables");
      f.engine.table("ks", "t").orElseThrow().compact();
      compare(f, "after compaction");

      // TTL: an expired value is found by its stale posting and dropped by the check
      for (String table : List.of("t", "u")) {
        f.run("INSERT INTO ks." + table + " (p, c, n, t) VALUES (99, 1, 7, 'w3') USING TTL 1");
      }
      long deadline = System.nanoTime() + 10_000_000_000L;
      while (!f.rows("SELECT * FROM ks.u WHERE p = 99").isEmpty() && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
      assertThat(f.rows("SELECT * FROM ks.t WHERE n = 7 AND t = 'w3'")).noneMatch(r -> r.startsWith("99,"));
      compare(f, "after a TTL expired");

      // paging: pages concatenate to the whole answer, none repeated
      for (String q : new String[] {QUERIES[1], QUERIES[5], QUERIES[7], QUERIES[11]}) {
        String indexed = String.format(q, "ks.t");
        List<String> all = f.rows(indexed);
        for (int pageSize : new int[] {2, 17}) {
          assertThat(paged(f, indexed, pageSize)).as(indexed + " page " + pageSize).containsExactlyElementsOf(all);
        }
      }

      f.restart();
      compare(f, "after a restart");

      f.run("DROP INDEX ks.tags_idx");
      assertThat(components(dir)).noneMatch(name -> name.contains("tags_idx"));
      assertThat(f.error("SELECT * FROM ks.t WHERE tags CONTAINS 'x2'").getMessage())
          .contains("ALLOW FILTERING");
    }
  }

  /**
   * ANN over SSTable graphs and the memtable, for each similarity function: recall@10 against
   * the exact ranking of the live rows, answers in score order, deleted rows never returned.
   */
  @Test
  void annFindsTheNearestLiveRows() throws Exception {
    try (LanguageFixture f = new LanguageFixture(dir)) {
      f.run("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
      f.run("CREATE TABLE ks.v (id int PRIMARY KEY, a vector<float, 8>, b vector<float, 8>, c vector<float, 8>)");
      String[] columns = {"a", "b", "c"};
      String[] functions = {"cosine", "dot_product", "euclidean"};
      for (int i = 0; i < 3; i++) {
        f.run("CREATE CUSTOM INDEX ON ks.v (" + columns[i] + ") USING 'StorageAttachedIndex'"
            + " WITH OPTIONS = {'similarity_function': '" + functions[i] + "'}");
      }
      Random random = new Random(7);
      java.util.Map<Integer, float[]> live = new java.util.HashMap<>();
      for (int id = 0; id < 900; id++) {
        if (id == 400 || id == 700) {
          f.engine.table("ks", "v").orElseThrow().flush();
        }
        int key = id < 800 ? id : random.nextInt(800); // the last 100 overwrite earlier rows
        float[] v = new float[8];
        for (int d = 0; d < 8; d++) {
          v[d] = (float) random.nextGaussian();
        }
        normalize(v); // unit vectors: dot product is meant for them
        live.put(key, v);
        String lit = literal(v);
        f.run("INSERT INTO ks.v (id, a, b, c) VALUES (" + key + ", " + lit + ", " + lit + ", " + lit + ")");
      }
      for (int i = 0; i < 30; i++) {
        int key = random.nextInt(800);
        live.remove(key);
        f.run("DELETE FROM ks.v WHERE id = " + key);
      }
      for (int c = 0; c < 3; c++) {
        io.cassette.storage.index.VectorSimilarity sim = io.cassette.storage.index.VectorSimilarity.values()[c];
        double recall = 0;
        for (int q = 0; q < 20; q++) {
          float[] query = new float[8];
          for (int d = 0; d < 8; d++) {
            query[d] = (float) random.nextGaussian();
          }
          normalize(query);
          List<String> got = f.rows("SELECT id FROM ks.v ORDER BY " + columns[c] + " ANN OF " + literal(query) + " LIMIT 10");
          assertThat(got).hasSize(10).doesNotHaveDuplicates();
          List<Integer> exact = new ArrayList<>(live.keySet());
          exact.sort((x, y) -> Float.compare(sim.score(query, live.get(y)), sim.score(query, live.get(x))));
          float previous = Float.MAX_VALUE;
          for (String id : got) {
            float[] v = live.get(Integer.parseInt(id));
            assertThat(v).as("row " + id + " is live").isNotNull();
            float score = sim.score(query, v);
            assertThat(score).isLessThanOrEqualTo(previous);
            previous = score;
          }
          for (int id : exact.subList(0, 10)) {
            recall += got.contains(String.valueOf(id)) ? 0.1 / 20 : 0;
          }
        }
        assertThat(recall).as(functions[c] + " recall@10").isGreaterThanOrEqualTo(0.9);
      }
      io.cassette.storage.index.TableIndexes indexes = f.engine.table("ks", "v").orElseThrow().indexes();
      assertThat(indexes.awaitGraphs(60_000)).as("graphs built off the flush path").isTrue();
      assertThat(indexes.graphHeapBytes()).isPositive();
    }
  }

  private static void normalize(float[] v) {
    double n = 0;
    for (float x : v) {
      n += x * x;
    }
    for (int i = 0; i < v.length; i++) {
      v[i] = (float) (v[i] / Math.sqrt(n));
    }
  }

  private static String literal(float[] v) {
    StringBuilder b = new StringBuilder("[");
    for (int i = 0; i < v.length; i++) {
      b.append(i == 0 ? "" : ", ").append(v[i]);
    }
    return b.append(']').toString();
  }

  private static void write(LanguageFixture f, Random random, int from, int to) {
    for (int i = from; i < to; i++) {
      int p = i % 12;
      int c = i % 30;
      int n = random.nextInt(100);
      String t = "w" + random.nextInt(5);
      long ts = 1577836800000L + random.nextInt(60) * 1000L;
      String tags = "{'x" + random.nextInt(3) + "', 'x" + random.nextInt(4) + "'}";
      String attrs = "{'k" + random.nextInt(3) + "': " + random.nextInt(5) + "}";
      for (String table : List.of("t", "u")) {
        f.run("INSERT INTO ks." + table + " (p, c, n, t, ts, tags, attrs) VALUES (" + p + ", " + c + ", " + n + ", '"
            + t + "', " + ts + ", " + tags + ", " + attrs + ")");
      }
    }
  }

  private static void flush(LanguageFixture f, String table) {
    Table t = f.engine.table("ks", table).orElseThrow();
    t.flush();
  }

  private static void compare(LanguageFixture f, String when) {
    for (String q : QUERIES) {
      List<String> expected = f.rows(String.format(q, "ks.u") + " ALLOW FILTERING");
      assertThat(f.rows(String.format(q, "ks.t"))).as(when + ": " + q).containsExactlyElementsOf(expected);
    }
  }

  private static List<String> paged(LanguageFixture f, String query, int pageSize) {
    List<String> out = new ArrayList<>();
    ByteBuffer state = null;
    int pages = 0;
    do {
      QueryOptions o = new QueryOptions(Consistency.ONE, List.of(), null, false, pageSize, state,
          Consistency.SERIAL, Long.MIN_VALUE, null, Integer.MIN_VALUE, 5);
      Result.Rows r = (Result.Rows) f.cql.query(query, o, f.state);
      assertThat(r.rows().size()).isLessThanOrEqualTo(pageSize);
      out.addAll(LanguageFixture.render(r));
      state = r.pagingState();
      assertThat(++pages).isLessThan(2000);
    } while (state != null);
    return out;
  }

  private static List<String> components(Path dir) throws Exception {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.map(p -> p.getFileName().toString()).filter(n -> n.contains("-SAI_")).toList();
    }
  }
}
