package io.cassette.cql.language;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cassette.cql.Consistency;
import io.cassette.cql.CqlException;
import io.cassette.cql.ErrorCode;
import io.cassette.cql.QueryOptions;
import io.cassette.cql.Result;
import io.cassette.cql.language.types.Types;
import io.cassette.cql.language.types.Values;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Statements in, rows and errors out: the real executor over a real engine. */
class CqlLanguageFeaturesTest {
  @TempDir
  Path dir;
  LanguageFixture f;

  @BeforeEach
  void open() {
    f = new LanguageFixture(dir);
    f.run("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
    f.run("USE ks");
  }

  @AfterEach
  void close() {
    f.close();
  }

  static QueryOptions values(Object... vs) {
    List<ByteBuffer> l = new ArrayList<>();
    for (Object v : vs) {
      l.add(v == null ? null : ByteBuffer.wrap(LanguageFixture.encode(v)));
    }
    return new QueryOptions(Consistency.ONE, l, null, false, -1, null, Consistency.SERIAL,
        Long.MIN_VALUE, null, Integer.MIN_VALUE, 5);
  }

  @Test
  void preparedStatementsDescribeTheirMarkersAndFollowSchemaChanges() {
    f.run("CREATE TABLE p (a int, b text, c int, v text, PRIMARY KEY ((a, b), c))");
    Result.Prepared ins = f.cql.prepare("INSERT INTO p (c, b, a, v) VALUES (?, ?, ?, ?) USING TTL ?", null, f.state);
    assertThat(ins.variables()).extracting(v -> v.name()).containsExactly("c", "b", "a", "v", "[ttl]");
    assertThat(ins.partitionKeyIndexes()).containsExactly(2, 1);
    f.cql.execute(ins.id(), ins.resultMetadataId(), values(1, "x", 7, "val", 0), f.state);
    Result.Prepared sel = f.cql.prepare("SELECT * FROM p WHERE a = :a AND b = :b", null, f.state);
    assertThat(sel.variables()).extracting(v -> v.name()).containsExactly("a", "b");
    assertThat(sel.resultColumns()).extracting(v -> v.name()).containsExactly("a", "b", "c", "v");
    Result.Rows rows = (Result.Rows) f.cql.execute(sel.id(), sel.resultMetadataId(), values(7, "x"), f.state);
    assertThat(LanguageFixture.render(rows)).containsExactly("7, 'x', 1, 'val'");
    f.run("ALTER TABLE p ADD w int");
    Result.Rows after = (Result.Rows) f.cql.execute(sel.id(), sel.resultMetadataId(), values(7, "x"), f.state);
    assertThat(LanguageFixture.names(after)).containsExactly("a", "b", "c", "v", "w");
    Result.Prepared again = f.cql.prepare("SELECT * FROM p WHERE a = :a AND b = :b", null, f.state);
    assertThat(again.id()).isEqualTo(sel.id());
    assertThat(again.resultMetadataId()).isNotEqualTo(sel.resultMetadataId());
    assertThatThrownBy(() -> f.cql.execute(new byte[16], null, values(), f.state))
        .isInstanceOf(CqlException.Unprepared.class);
    assertThatThrownBy(() -> f.cql.execute(sel.id(), null, values(7), f.state))
        .hasMessage("There were 2 markers(?) in CQL but 1 bound variables");
  }

  @Test
  void lightweightTransactionsAreSerialized() throws Exception {
    f.run("CREATE TABLE acct (id int PRIMARY KEY, balance int)");
    f.run("INSERT INTO acct (id, balance) VALUES (1, 0)");
    ExecutorService pool = Executors.newFixedThreadPool(4);
    int[] applied = new int[1];
    for (int t = 0; t < 4; t++) {
      pool.submit(() -> {
        for (int i = 0; i < 50; i++) {
          while (true) {
            Result.Rows cur = (Result.Rows) f.run("SELECT balance FROM acct WHERE id = 1");
            int b = Values.toInt(bytes(cur.rows().get(0).get(0)));
            Result.Rows r = (Result.Rows) f.run("UPDATE acct SET balance = " + (b + 1) + " WHERE id = 1 IF balance = " + b);
            if (bytes(r.rows().get(0).get(0))[0] == 1) {
              synchronized (applied) {
                applied[0]++;
              }
              break;
            }
          }
        }
      });
    }
    pool.shutdown();
    assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
    assertThat(applied[0]).isEqualTo(200);
    assertThat(f.rows("SELECT balance FROM acct WHERE id = 1")).containsExactly("200");
    Result.Rows notApplied = (Result.Rows) f.run("INSERT INTO acct (id, balance) VALUES (1, 5) IF NOT EXISTS");
    assertThat(LanguageFixture.names(notApplied)).containsExactly("[applied]", "id", "balance");
    assertThat(LanguageFixture.render(notApplied)).containsExactly("false, 1, 200");
  }

  @Test
  void countersAddUpUnderConcurrency() throws Exception {
    f.run("CREATE TABLE c (k int PRIMARY KEY, n counter)");
    ExecutorService pool = Executors.newFixedThreadPool(4);
    for (int t = 0; t < 4; t++) {
      pool.submit(() -> {
        for (int i = 0; i < 100; i++) {
          f.run("UPDATE c SET n = n + 1 WHERE k = 1");
        }
      });
    }
    pool.shutdown();
    assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
    assertThat(f.rows("SELECT n FROM c WHERE k = 1")).containsExactly("400");
  }

  @Test
  void ttlExpiresAndTombstonesHide() {
    f.run("CREATE TABLE e (k int PRIMARY KEY, v text)");
    f.run("INSERT INTO e (k, v) VALUES (1, 'short') USING TTL 10");
    QueryOptions later = new QueryOptions(Consistency.ONE, List.of(), null, false, -1, null, Consistency.SERIAL,
        Long.MIN_VALUE, null, (int) (System.currentTimeMillis() / 1000) + 20, 5);
    assertThat(LanguageFixture.render((Result.Rows) f.cql.query("SELECT * FROM e", later, f.state))).isEmpty();
    assertThat(f.rows("SELECT k, ttl(v) FROM e")).hasSize(1);
    f.run("DELETE FROM e WHERE k = 1");
    assertThat(f.rows("SELECT * FROM e")).isEmpty();
  }

  @Test
  void collectionsAndUdtsSurviveRestart() {
    f.run("CREATE TYPE pt (x int, y int)");
    f.run("CREATE TABLE g (k int PRIMARY KEY, l list<text>, s set<int>, m map<text, int>, p pt, fp frozen<pt>)");
    f.run("INSERT INTO g (k, l, s, m, p, fp) VALUES (1, ['a', 'b'], {3, 1}, {'z': 26}, {x: 1, y: 2}, {x: 3, y: 4})");
    f.run("UPDATE g SET l = ['0'] + l, l = l + ['c'], s = s - {3}, m['a'] = 1, p.y = 20 WHERE k = 1");
    f.restart();
    f.run("USE ks");
    assertThat(f.rows("SELECT l, s, m, p, fp FROM g"))
        .containsExactly("['0', 'a', 'b', 'c'], {1}, {'a': 1, 'z': 26}, {x: 1, y: 20}, {x: 3, y: 4}");
    f.run("INSERT INTO g (k, l) VALUES (1, ['only'])");
    assertThat(f.rows("SELECT l FROM g WHERE k = 1")).containsExactly("['only']");
    f.run("DELETE l[0] FROM g WHERE k = 1");
    assertThat(f.rows("SELECT l FROM g WHERE k = 1")).containsExactly("null");
  }

  @Test
  void jsonInAndOut() {
    f.run("CREATE TABLE j (k int PRIMARY KEY, name text, tags set<text>, \"Mixed\" int)");
    f.run("INSERT INTO j JSON '{\"k\": 1, \"name\": \"ann\", \"tags\": [\"b\", \"a\"], \"\\\"Mixed\\\"\": 5}'");
    assertThat(f.rows("SELECT JSON * FROM j"))
        .containsExactly("'{\"k\": 1, \"\\\"Mixed\\\"\": 5, \"name\": \"ann\", \"tags\": [\"a\", \"b\"]}'");
    assertThat(f.rows("SELECT toJson(tags) FROM j")).containsExactly("'[\"a\", \"b\"]'");
  }

  @Test
  void batchesApplyAtomicallyAndSchemaEventsFire() {
    List<Result.SchemaChange> events = new ArrayList<>();
    f.cql.onSchemaChange(events::add);
    f.run("CREATE TABLE b (k int, c int, v int, PRIMARY KEY (k, c))");
    assertThat(events).extracting(e -> e.change() + " " + e.target() + " " + e.name()).containsExactly("CREATED TABLE b");
    f.run("BEGIN BATCH INSERT INTO b (k, c, v) VALUES (1, 1, 1); INSERT INTO b (k, c, v) VALUES (2, 1, 2);"
        + " UPDATE b SET v = 3 WHERE k = 1 AND c = 2; APPLY BATCH");
    assertThat(f.rows("SELECT k, c, v FROM b")).containsExactlyInAnyOrder("1, 1, 1", "1, 2, 3", "2, 1, 2");
    assertThatThrownBy(() -> f.run("BEGIN BATCH INSERT INTO b (k, c, v) VALUES (3, 1, 1); INSERT INTO b (k, c, v)"
        + " VALUES (4, 1, 'bad'); APPLY BATCH")).isInstanceOf(CqlException.class);
    assertThat(f.rows("SELECT k FROM b WHERE k = 3")).isEmpty();
    f.run("TRUNCATE b");
    assertThat(f.rows("SELECT * FROM b")).isEmpty();
    f.run("DROP TABLE b");
    assertThat(events).extracting(e -> e.change()).containsExactly("CREATED", "DROPPED");
    assertThat(f.error("SELECT * FROM b").getMessage()).isEqualTo("table b does not exist");
  }

  @Test
  void secondaryIndexQueriesNeedNoAllowFiltering() {
    f.run("CREATE TABLE u (id int PRIMARY KEY, email text, age int)");
    f.run("INSERT INTO u (id, email, age) VALUES (1, 'a@x', 30)");
    f.run("INSERT INTO u (id, email, age) VALUES (2, 'b@x', 40)");
    assertThat(f.error("SELECT id FROM u WHERE email = 'b@x'").getMessage()).contains("ALLOW FILTERING");
    f.run("CREATE INDEX ON u (email)");
    assertThat(f.rows("SELECT id FROM u WHERE email = 'b@x'")).containsExactly("2");
    assertThat(f.rows("SELECT index_name, options FROM system_schema.indexes WHERE keyspace_name = 'ks'"))
        .containsExactly("'u_email_idx', {'target': 'email'}");
  }

  @Test
  void typesRoundTripThroughLiteralsAndMarkers() {
    f.run("CREATE TABLE ty (k int PRIMARY KEY, ts timestamp, d date, t time, du duration, dec decimal,"
        + " vi varint, ip inet, v vector<float, 2>, tu tuple<int, text>)");
    f.run("INSERT INTO ty (k, ts, d, t, du, dec, vi, ip, v, tu) VALUES (1, '2024-05-06T07:08:09.123Z', '2024-05-06',"
        + " '01:02:03.000000004', 1y2mo3d4h, -1.50, -12345678901234567890, '2001:db8::1', [1.5, -2], (7, 'x'))");
    assertThat(f.rows("SELECT ts, d, t, du, dec, vi, ip, v, tu FROM ty")).containsExactly(
        "'2024-05-06T07:08:09.123Z', '2024-05-06', '01:02:03.000000004', 1y2mo3d4h, -1.50,"
            + " -12345678901234567890, '2001:db8:0:0:0:0:0:1', [1.5, -2.0], (7, 'x')");
    f.run("INSERT INTO ty (k, ts) VALUES (?, ?)", 2, Values.ofLong(0));
    assertThat(f.rows("SELECT ts FROM ty WHERE k = 2")).containsExactly("'1970-01-01T00:00:00.000Z'");
    CqlException e = f.error("INSERT INTO ty (k, ts) VALUES (3, 'nope')");
    assertThat(e.code()).isEqualTo(ErrorCode.INVALID);
    assertThat(Types.toCql(Types.freeze(new io.cassette.cql.CqlType.ListType(Types.INT, false))))
        .isEqualTo("frozen<list<int>>");
  }

  @Test
  void describeAnswersLikeCassandra4AndLater() {
    f.run("CREATE TABLE d (k int, c text, v int, PRIMARY KEY (k, c)) WITH CLUSTERING ORDER BY (c DESC)");
    assertThat(f.rows("DESCRIBE TABLES")).containsExactly("'ks', 'table', 'd'");
    List<String> table = f.rows("DESCRIBE TABLE d");
    assertThat(table).hasSize(1);
    assertThat(table.get(0)).contains("CREATE TABLE ks.d (\n    k int,\n    c text,\n    v int,\n    PRIMARY KEY (k, c)\n)"
        + " WITH CLUSTERING ORDER BY (c DESC)");
    assertThat(f.rows("DESCRIBE KEYSPACE ks")).hasSize(2);
    assertThat(f.rows("DESCRIBE KEYSPACES")).contains("'ks', 'keyspace', 'ks'", "'system', 'keyspace', 'system'");
    assertThat(f.error("DESCRIBE TABLE nope").getMessage()).isEqualTo("Table 'nope' not found in keyspace 'ks'");
  }

  @Test
  void droppedColumnsStayDroppedAcrossReAddAndRestart() throws Exception {
    f.run("CREATE TABLE dc (k int PRIMARY KEY, v text, w int)");
    f.run("INSERT INTO dc (k, v, w) VALUES (1, 'old', 1)");
    f.run("ALTER TABLE dc DROP v");
    Thread.sleep(2);
    assertThat(f.error("ALTER TABLE dc ADD v int").getMessage())
        .isEqualTo("Cannot re-add previously dropped column 'v' of type int, incompatible with previous type text");
    f.run("ALTER TABLE dc ADD v text");
    assertThat(f.rows("SELECT k, v, w FROM dc")).containsExactly("1, null, 1");
    f.run("UPDATE dc SET v = 'new' WHERE k = 1");
    f.restart();
    f.run("USE ks");
    assertThat(f.rows("SELECT k, v, w FROM dc")).containsExactly("1, 'new', 1");
    assertThat(f.rows("SELECT column_name, type FROM system_schema.dropped_columns WHERE keyspace_name = 'ks'"))
        .containsExactly("'v', 'text'");
  }

  @Test
  void tableOptionsAreValidatedAndReachStorage() {
    f.run("CREATE TABLE o (k int PRIMARY KEY) WITH compression = {'class': 'SnappyCompressor', 'chunk_length_in_kb': 4}"
        + " AND compaction = {'class': 'LeveledCompactionStrategy'} AND gc_grace_seconds = 5");
    assertThat(f.engine.table("ks", "o").orElseThrow().spec().compression()).containsEntry("class", "SnappyCompressor");
    assertThat(f.engine.table("ks", "o").orElseThrow().spec().gcGraceSeconds()).isEqualTo(5);
    assertThat(f.error("CREATE TABLE o2 (k int PRIMARY KEY) WITH compression = {'class': 'FooCompressor'}").getMessage())
        .isEqualTo("Could not create Compression for type org.apache.cassandra.io.compress.FooCompressor");
    assertThat(f.error("CREATE TABLE o2 (k int PRIMARY KEY) WITH compression = {'class': 'LZ4Compressor',"
        + " 'chunk_length_in_kb': 3}").code()).isEqualTo(ErrorCode.CONFIG_ERROR);
    assertThat(f.error("CREATE TABLE o3 (k int PRIMARY KEY) WITH compaction = {'class': 'Nope'}").getMessage())
        .isEqualTo("Unable to find compaction strategy class 'org.apache.cassandra.db.compaction.Nope'");
    f.run("CREATE TABLE o4 (k int PRIMARY KEY) WITH compaction = {'class': 'UnifiedCompactionStrategy',"
        + " 'scaling_parameters': 'T8, L10'}");
    assertThat(f.engine.table("ks", "o4").orElseThrow().spec().compaction())
        .containsEntry("class", "UnifiedCompactionStrategy").containsEntry("scaling_parameters", "T8, L10");
    assertThat(f.error("CREATE TABLE o5 (k int PRIMARY KEY) WITH compaction = {'class': 'UnifiedCompactionStrategy',"
        + " 'scaling_parameters': 'T1'}").code()).isEqualTo(ErrorCode.CONFIG_ERROR);
    f.run("ALTER TABLE o WITH compression = {'enabled': false}");
    assertThat(f.engine.table("ks", "o").orElseThrow().spec().compression()).containsEntry("enabled", "false");
  }

  @Test
  void selectorArithmetic() {
    f.run("CREATE TABLE ar (k int PRIMARY KEY, b bigint, d double)");
    f.run("INSERT INTO ar (k, b, d) VALUES (7, 100, 0.5)");
    Result.Rows r = (Result.Rows) f.run("SELECT k + 1, b * 2 - k, d * k, k % 4 FROM ar");
    assertThat(LanguageFixture.names(r)).containsExactly("k + 1", "b * 2 - k", "d * k", "k % 4");
    assertThat(LanguageFixture.render(r)).containsExactly("8, 193, 3.5, 3");
    assertThat(f.error("SELECT k / 0 FROM ar").code()).isEqualTo(ErrorCode.FUNCTION_FAILURE);
  }

  @Test
  void collectionConditionsAndPerElementWritetimes() {
    f.run("CREATE TABLE cc (k int PRIMARY KEY, s set<text>, m map<text, int>)");
    f.run("INSERT INTO cc (k, s, m) VALUES (1, {'a', 'b'}, {'x': 1}) USING TIMESTAMP 1000");
    assertThat(f.rows("UPDATE cc SET m['y'] = 2 WHERE k = 1 IF s CONTAINS 'a' AND m CONTAINS KEY 'x'"))
        .containsExactly("true");
    assertThat(f.rows("UPDATE cc SET m['z'] = 3 WHERE k = 1 IF m CONTAINS 9")).hasSize(1).allMatch(r -> r.startsWith("false"));
    assertThat(f.rows("SELECT writetime(s) FROM cc")).containsExactly("[1000, 1000]");
    assertThat(f.rows("SELECT maxwritetime(s) FROM cc")).containsExactly("1000");
  }

  @Test
  void indexTablesAnswerQueriesAndToleratStaleEntries() {
    f.run("CREATE TABLE ix (k int, c int, v text, tags set<text>, PRIMARY KEY (k, c))");
    for (int k = 0; k < 20; k++) {
      f.run("INSERT INTO ix (k, c, v, tags) VALUES (" + k + ", 1, '" + (k % 3) + "', {'t" + (k % 2) + "'})");
    }
    f.run("CREATE INDEX ix_v ON ix (v)");
    f.run("CREATE INDEX ix_tags ON ix (tags)");
    assertThat(f.engine.table("ks", "ix.ix_v")).isPresent();
    List<String> expected = f.rows("SELECT k FROM ix WHERE v = '1' ALLOW FILTERING");
    assertThat(expected).hasSize(7);
    f.run("UPDATE ix SET v = 'moved' WHERE k = 1 AND c = 1");
    f.run("DELETE FROM ix WHERE k = 4");
    f.run("INSERT INTO ix (k, c, v) VALUES (100, 2, '1')");
    List<String> viaIndex = f.rows("SELECT k, c FROM ix WHERE v = '1'");
    assertThat(viaIndex).hasSize(6).doesNotContain("1, 1", "4, 1").contains("100, 2");
    assertThat(f.rows("SELECT k FROM ix WHERE tags CONTAINS 't1'")).hasSize(10);
    List<String> paged = new ArrayList<>();
    ByteBuffer state = null;
    do {
      QueryOptions o = new QueryOptions(Consistency.ONE, List.of(), null, false, 2, state, Consistency.SERIAL,
          Long.MIN_VALUE, null, Integer.MIN_VALUE, 5);
      Result.Rows r = (Result.Rows) f.cql.query("SELECT k, c FROM ix WHERE v = '1'", o, f.state);
      paged.addAll(LanguageFixture.render(r));
      state = r.pagingState();
    } while (state != null);
    assertThat(paged).containsExactlyElementsOf(viaIndex);
    f.restart();
    f.run("USE ks");
    f.run("INSERT INTO ix (k, c, v) VALUES (200, 1, '1')");
    assertThat(f.rows("SELECT k, c FROM ix WHERE v = '1'")).hasSize(7);
    f.run("DROP INDEX ix_v");
    assertThat(f.engine.table("ks", "ix.ix_v")).isEmpty();
    f.run("DROP TABLE ix");
    assertThat(f.engine.table("ks", "ix.ix_tags")).isEmpty();
  }

  static byte[] bytes(ByteBuffer b) {
    byte[] out = new byte[b.remaining()];
    b.duplicate().get(out);
    return out;
  }
}
