package io.cassette.storage.index;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.storage.Cell;
import io.cassette.storage.Engine;
import io.cassette.storage.EngineOptions;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.Row;
import io.cassette.storage.Table;
import io.cassette.storage.TableSpec;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The vector graph is built off the flush path: a flush writes the component without a graph
 * and returns; until the graph thread has added it, searches of that SSTable score every vector
 * (exact); after, they walk the graph. A crash before the graph was installed leaves the
 * graph-less component (correct) and a temporary file, and the next start builds the graph.
 * The graph thread is held with a latch so that "before" is observable.
 */
class VectorGraphBuildTest {
  @TempDir
  Path dir;

  private static final UUID ID = UUID.fromString("00000000-0000-0000-0000-000000000122");
  private static final int DIMS = 16;
  private static final TermExtractor VECTOR = (Cell c, java.util.function.Consumer<byte[]> out) -> out.accept(c.value());
  private static final IndexDefinition V_IDX = IndexDefinition.vector("v_idx", "v", VECTOR, DIMS,
      VectorSimilarity.EUCLIDEAN);

  @Test
  void flushWritesVectorsAtOnceAndTheGraphFollows() throws Exception {
    Random random = new Random(7);
    float[][] data = new float[1000][];
    Path copy = Files.createDirectory(dir.resolve("crashed"));
    CountDownLatch hold = holdGraphThread();
    try (Engine e = Engine.open(EngineOptions.defaults(dir.resolve("data")))) {
      Table t = e.createTable(TableSpec.withDefaults("ks", "t", ID));
      t.indexes().define(List.of(V_IDX));
      for (int i = 0; i < data.length; i++) {
        data[i] = gaussian(random);
        write(t, i, data[i]);
      }
      t.flush(); // returns with the graph thread held: the flush did not wait for a graph
      assertThat(t.indexes().graphsPending()).isEqualTo(1);
      assertThat(t.indexes().graphHeapBytes()).isZero();
      for (int q = 0; q < 10; q++) {
        float[] query = gaussian(random);
        assertThat(keys(t.indexes().nearest("v_idx", query, 10))).as("exact before the graph")
            .isEqualTo(exact(data, query, 10));
      }
      // what a crash now leaves on disk: the graph-less component, and a half-written graph file
      copyTree(dir.resolve("data"), copy);
      Path component = components(copy).get(0);
      Files.write(VectorGraphComponent.tmpPath(component), new byte[100]);

      hold.countDown();
      assertThat(t.indexes().awaitGraphs(60_000)).isTrue();
      assertThat(t.indexes().graphHeapBytes()).isPositive();
      assertThat(recall(t, data, random)).as("recall@10 through the graph").isGreaterThanOrEqualTo(0.9);
    }

    hold = holdGraphThread();
    try (Engine e = Engine.open(EngineOptions.defaults(copy))) {
      Table t = e.table("ks", "t").orElseThrow();
      try (Stream<Path> files = Files.list(components(copy).get(0).getParent())) {
        assertThat(files.map(p -> p.getFileName().toString())).as("the half-written graph is gone")
            .noneMatch(n -> n.endsWith(".tmp"));
      }
      t.indexes().define(List.of(V_IDX)); // as the front door does at start
      assertThat(t.indexes().graphsPending()).isEqualTo(1);
      float[] query = gaussian(random);
      assertThat(keys(t.indexes().nearest("v_idx", query, 10))).isEqualTo(exact(data, query, 10));
      hold.countDown();
      assertThat(t.indexes().awaitGraphs(60_000)).isTrue();
      assertThat(t.indexes().graphHeapBytes()).as("the graph built at start").isPositive();
      assertThat(recall(t, data, random)).isGreaterThanOrEqualTo(0.9);
    } finally {
      hold.countDown();
    }
  }

  /**
   * Closing the engine stops a graph build in flight and waits for it: nothing is written in
   * the table's directory after close returns (a test's temporary directory is deleted then,
   * and a dropped table's directory is deleted while its build may be running).
   */
  @Test
  void closeStopsTheRunningBuildAndWritesNothingAfter() throws Exception {
    Random random = new Random(11);
    Path data = dir.resolve("data");
    try (Engine e = Engine.open(EngineOptions.defaults(data))) {
      Table t = tableWithALongBuild(e, random);
      assertThat(t.indexes().graphsPending()).as("builds started or queued").isPositive();
      e.close();
      assertThat(t.indexes().graphsPending()).as("no build left after close").isZero();
    }
    CountDownLatch after = new CountDownLatch(1);
    VectorGraphBuilds.submit(after::countDown);
    assertThat(after.await(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    try (Stream<Path> files = Files.walk(data)) {
      assertThat(files.map(p -> p.getFileName().toString())).as("no graph written after close")
          .noneMatch(n -> n.endsWith(".tmp"));
    }
    try (Engine e = Engine.open(EngineOptions.defaults(data))) {
      Table t = e.table("ks", "t").orElseThrow();
      CountDownLatch hold = holdGraphThread();
      try {
        t.indexes().define(List.of(V_IDX));
        assertThat(t.indexes().graphsPending()).as("the stopped builds left their components without a graph")
            .isPositive();
      } finally {
        hold.countDown();
      }
      e.close(); // a queued build is not waited for: it returns at once when it runs
      assertThat(t.indexes().graphsPending()).isZero();
    }
  }

  /** Dropping a table stops its build before its directory is deleted. */
  @Test
  void dropStopsTheBuild() throws Exception {
    Random random = new Random(13);
    Path data = dir.resolve("data");
    try (Engine e = Engine.open(EngineOptions.defaults(data))) {
      Table t = tableWithALongBuild(e, random);
      e.dropTable("ks", "t");
      assertThat(t.indexes().graphsPending()).isZero();
      CountDownLatch after = new CountDownLatch(1);
      VectorGraphBuilds.submit(after::countDown);
      assertThat(after.await(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
      assertThat(Files.exists(data.resolve("ks")) ? Files.list(data.resolve("ks")).count() : 0)
          .as("nothing recreated in the dropped table's place").isZero();
    }
  }

  /** A table of 40,000 indexed vectors, flushed: a build of many seconds, started or queued. */
  private static Table tableWithALongBuild(Engine e, Random random) throws InterruptedException {
    Table t = e.createTable(TableSpec.withDefaults("ks", "t", ID));
    t.indexes().define(List.of(V_IDX));
    for (int i = 0; i < 40_000; i++) {
      write(t, i, gaussian(random));
    }
    t.flush();
    Thread.sleep(100);
    return t;
  }

  /** Queues a task that keeps the graph thread busy until the latch is released. */
  private static CountDownLatch holdGraphThread() {
    CountDownLatch latch = new CountDownLatch(1);
    VectorGraphBuilds.submit(() -> {
      try {
        latch.await();
      } catch (InterruptedException ignored) {
        Thread.currentThread().interrupt();
      }
    });
    return latch;
  }

  private static double recall(Table t, float[][] data, Random random) {
    double hits = 0;
    for (int q = 0; q < 20; q++) {
      float[] query = gaussian(random);
      List<Integer> got = keys(t.indexes().nearest("v_idx", query, 10));
      for (int id : exact(data, query, 10)) {
        hits += got.contains(id) ? 1 : 0;
      }
    }
    return hits / 200;
  }

  private static List<Integer> keys(List<Neighbour> found) {
    List<Integer> ids = new ArrayList<>();
    for (Neighbour n : found) {
      ids.add(ByteBuffer.wrap(n.key().partition().key()).getInt());
    }
    return ids;
  }

  private static List<Integer> exact(float[][] data, float[] query, int k) {
    List<Integer> ids = new ArrayList<>();
    for (int i = 0; i < data.length; i++) {
      ids.add(i);
    }
    ids.sort((a, b) -> Float.compare(VectorSimilarity.EUCLIDEAN.score(query, data[b]),
        VectorSimilarity.EUCLIDEAN.score(query, data[a])));
    return ids.subList(0, k);
  }

  private static float[] gaussian(Random random) {
    float[] v = new float[DIMS];
    for (int d = 0; d < DIMS; d++) {
      v[d] = (float) random.nextGaussian();
    }
    return v;
  }

  private static void write(Table t, int key, float[] v) {
    byte[] k = ByteBuffer.allocate(4).putInt(key).array();
    ByteBuffer b = ByteBuffer.allocate(DIMS * 4);
    for (float f : v) {
      b.putFloat(f);
    }
    t.apply(PartitionUpdate.builder("ks", "t", k).row(Row.of(new byte[0], List.of(Cell.live("v", b.array(), 1)))).build());
  }

  private static List<Path> components(Path root) throws Exception {
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(p -> p.getFileName().toString().matches("v\\d+-\\d+-SAI_.*\\.db")).toList();
    }
  }

  private static void copyTree(Path from, Path to) throws Exception {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
  }
}
