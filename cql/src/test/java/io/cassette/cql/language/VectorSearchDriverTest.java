package io.cassette.cql.language;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.data.CqlVector;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 22 part II as an application sees it through the Java driver 4.x: SAI range and
 * equality queries without ALLOW FILTERING, vector search with prepared {@code ANN OF ?} and
 * {@code CqlVector} values (checked against a client-side exact ranking), the similarity
 * functions, system_views.clients showing this session, and user functions refused as
 * Cassandra 5.0 refuses them by default.
 */
class VectorSearchDriverTest {
  static final int ROWS = 120;
  static final int DIMENSION = 8;

  @TempDir
  Path dir;

  @Test
  void saiAndVectorSearchThroughTheDriver() throws Exception {
    try (LocalCqlNode node = new LocalCqlNode(dir);
         CqlSession s = DifferentialCorpusTest.session(node.address)) {
      s.execute("CREATE KEYSPACE vs WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
      s.execute("CREATE TABLE vs.items (id int PRIMARY KEY, category text, price int,"
          + " embedding vector<float, " + DIMENSION + ">)");
      s.execute("CREATE INDEX ON vs.items (price) USING 'sai'");
      s.execute("CREATE INDEX ON vs.items (category) USING 'sai'");
      s.execute("CREATE CUSTOM INDEX ON vs.items (embedding) USING 'StorageAttachedIndex'"
          + " WITH OPTIONS = {'similarity_function': 'cosine'}");
      Random random = new Random(22);
      List<float[]> vectors = new ArrayList<>();
      PreparedStatement insert = s.prepare("INSERT INTO vs.items (id, category, price, embedding) VALUES (?, ?, ?, ?)");
      for (int id = 0; id < ROWS; id++) {
        float[] v = randomVector(random);
        vectors.add(v);
        s.execute(insert.bind(id, "c" + (id % 3), id, vector(v)));
      }

      // SAI: a numeric range and an equality, combined, with no ALLOW FILTERING
      PreparedStatement range = s.prepare("SELECT id FROM vs.items WHERE price >= ? AND price < ? AND category = ?");
      Set<Integer> got = new HashSet<>();
      for (Row r : s.execute(range.bind(40, 70, "c1"))) {
        got.add(r.getInt("id"));
      }
      Set<Integer> expected = new HashSet<>();
      for (int id = 40; id < 70; id++) {
        if (id % 3 == 1) {
          expected.add(id);
        }
      }
      assertThat(got).isEqualTo(expected);

      // ANN: the k nearest by cosine, in order, as an exact client-side ranking gives them
      float[] query = randomVector(random);
      PreparedStatement ann = s.prepare("SELECT id, similarity_cosine(embedding, ?) AS score FROM vs.items"
          + " ORDER BY embedding ANN OF ? LIMIT ?");
      List<Integer> ids = new ArrayList<>();
      for (Row r : s.execute(ann.bind(vector(query), vector(query), 10))) {
        ids.add(r.getInt("id"));
        assertThat((double) r.getFloat("score")).isCloseTo(cosineScore(query, vectors.get(r.getInt("id"))),
            org.assertj.core.data.Offset.offset(1e-5));
      }
      assertThat(ids).isEqualTo(nearest(query, vectors, 10, id -> true));

      // ANN restricted by an SAI-indexed column
      PreparedStatement filtered = s.prepare("SELECT id FROM vs.items WHERE price > ? ORDER BY embedding ANN OF ? LIMIT 5");
      List<Integer> fids = new ArrayList<>();
      for (Row r : s.execute(filtered.bind(90, vector(query)))) {
        fids.add(r.getInt("id"));
      }
      assertThat(fids).isEqualTo(nearest(query, vectors, 5, id -> id > 90));

      assertThatThrownBy(() -> s.execute("SELECT id FROM vs.items ORDER BY embedding ANN OF [1,2,3,4,5,6,7,8]"))
          .isInstanceOf(InvalidQueryException.class)
          .hasMessageContaining("Top-K queries must have a limit specified");

      // system_views.clients lists this driver's connections
      boolean seen = false;
      for (Row r : s.execute("SELECT driver_name, protocol_version, connection_stage FROM system_views.clients")) {
        seen |= "Apache Cassandra Java Driver".equals(r.getString("driver_name")) && r.getInt("protocol_version") == 5
            && "ready".equals(r.getString("connection_stage"));
      }
      assertThat(seen).isTrue();

      // user-defined functions are off, as in Cassandra 5.0's default cassandra.yaml
      assertThatThrownBy(() -> s.execute("CREATE FUNCTION vs.f(x int) RETURNS NULL ON NULL INPUT RETURNS int"
          + " LANGUAGE java AS 'return x;'"))
          .isInstanceOf(InvalidQueryException.class)
          .hasMessage("User-defined functions are disabled in cassandra.yaml - set user_defined_functions_enabled=true to enable");
    }
  }

  private static float[] randomVector(Random random) {
    float[] v = new float[DIMENSION];
    for (int i = 0; i < DIMENSION; i++) {
      v[i] = random.nextFloat() * 2 - 1;
    }
    return v;
  }

  private static CqlVector<Float> vector(float[] v) {
    List<Float> l = new ArrayList<>();
    for (float f : v) {
      l.add(f);
    }
    return CqlVector.newInstance(l);
  }

  private static double cosineScore(float[] a, float[] b) {
    double dot = 0;
    double na = 0;
    double nb = 0;
    for (int i = 0; i < a.length; i++) {
      dot += a[i] * b[i];
      na += a[i] * a[i];
      nb += b[i] * b[i];
    }
    return (1 + dot / Math.sqrt(na * nb)) / 2;
  }

  private static List<Integer> nearest(float[] q, List<float[]> vectors, int k, java.util.function.IntPredicate keep) {
    List<Integer> ids = new ArrayList<>();
    for (int id = 0; id < vectors.size(); id++) {
      if (keep.test(id)) {
        ids.add(id);
      }
    }
    ids.sort(Comparator.comparingDouble((Integer id) -> -cosineScore(q, vectors.get(id))));
    return ids.subList(0, Math.min(k, ids.size()));
  }

  /** The same as an application using the Python driver sees it (skipped where it is not installed). */
  @Test
  void thePythonDriverRunsSaiAndAnnQueries(@TempDir Path tmp) throws Exception {
    io.cassette.cql.DriverScript.assumePythonDriver();
    try (LocalCqlNode node = new LocalCqlNode(dir)) {
      String output = io.cassette.cql.DriverScript.runPython(VectorSearchDriverTest.class, "python_sai_check.py", tmp, node.address, 120);
      assertThat(output).contains("SAI 20 rows").contains("ANN [").contains("REFUSED InvalidRequest").contains("DONE");
    }
  }
}
