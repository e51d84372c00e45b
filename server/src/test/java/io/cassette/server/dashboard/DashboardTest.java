package io.cassette.server.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.cassette.metrics.LatencyMonitor;
import io.cassette.metrics.NodeMetrics;
import io.cassette.server.config.ConfigLoader;
import io.cassette.server.http.AdminHttpServer;
import io.cassette.storage.Engine;
import io.cassette.storage.StorageMetrics;
import io.cassette.storage.Table;
import io.cassette.storage.TableMetrics;
import io.cassette.storage.TableSpec;
import io.netty.channel.nio.NioEventLoopGroup;
import java.io.File;
import java.lang.reflect.Proxy;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dashboard's endpoints over a real AdminHttpServer on loopback, after known operations. The
 * storage engine is a stand-in answering tables() with fixed statistics (a proxy, so that new
 * Engine methods do not break it); everything else is the real code.
 */
class DashboardTest {
  @TempDir Path dir;
  private NioEventLoopGroup loop;
  private AdminHttpServer http;
  private String base;
  private NodeMetrics metrics;
  private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  /** Engine-wide counters: 250 fsyncs, the slowest 450 ms, 4 writes held back, 100,000 bytes logged. */
  private static final StorageMetrics ENGINE = new StorageMetrics(3, 90_000, 5L << 20, 32L << 20, 0, 250,
      450_000, 2_000_000, 4, 800_000, 100_000, 2, 5, 1, 80_000, 0, 0, 0);

  private static final TableMetrics EVENTS = new TableMetrics(5_000, 12_000, 900_000, 2_400_000, 3,
      123_456_789L, 250_000_000L, 4_194_304L, 2, 17);

  @BeforeEach
  void start() throws Exception {
    metrics = new NodeMetrics(new LatencyMonitor(100, System::currentTimeMillis));
    loop = new NioEventLoopGroup(1);
    http = new AdminHttpServer("127.0.0.1", 0, loop);
    Dashboard.register(http, metrics, engineWith(table("app", "events", EVENTS),
        table("app", "users", new TableMetrics(10, 20, 0, 0, 1, 4096, 8192, 0, 0, 0))), dir, "Board Cluster",
        "127.0.0.1:9042");
    base = "http://127.0.0.1:" + http.start().getPort();
    knownOperations();
  }

  @AfterEach
  void stop() {
    http.close();
    loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
  }

  /** 1000 CQL queries of 1..1000 us, 40 Redis SETs, 2 errors, a 450 ms fsync stall, a slow query. */
  private void knownOperations() {
    for (int i = 1; i <= 1000; i++) {
      metrics.requests("cql").record("QUERY", i);
    }
    for (int i = 0; i < 40; i++) {
      metrics.requests("resp").record("SET", 80);
    }
    metrics.requests("resp").error("SET");
    metrics.requests("cql").error("QUERY");
    metrics.requests("cql").connectionOpened();
    for (int i = 0; i < 100; i++) {
      metrics.storage().commitLogAppended(1_000);
    }
    metrics.storage().commitLogSynced(2_000, "CommitLog-1-1.log");
    metrics.storage().commitLogSynced(450_000, "CommitLog-1-2.log");
    metrics.storage().memtableFlushed("app.events", 20_000, 120_000);
    metrics.storage().compacted("app.events", 50_000, 120_000, 80_000);
    metrics.cqlSlowLog().add(25_000, List.of("SELECT * FROM app.events WHERE day = '2026-11-30' ALLOW FILTERING"),
        "127.0.0.1:51234", "");
    metrics.respSlowLog().add(12_000, List.of("KEYS", "<script>alert(1)</script>"), "127.0.0.1:40000", "");
  }

  @Test
  void metricsEndpointServesPrometheusTextWithTheRecordedValues() throws Exception {
    HttpResponse<String> r = get("/metrics");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("content-type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
    assertThat(r.body()).contains(
        "cassette_request_latency_seconds_count{door=\"cql\",type=\"QUERY\"} 1000\n",
        "cassette_request_latency_seconds_sum{door=\"cql\",type=\"QUERY\"} 0.5005\n",
        "cassette_request_errors_total{door=\"resp\",type=\"SET\"} 1\n",
        "cassette_commitlog_fsync_seconds_count 2\n",
        "cassette_flash_wear_ratio 3\n",
        "cassette_table_disk_bytes{keyspace=\"app\",table=\"events\"} 123456789\n",
        "cassette_table_pending_compactions{keyspace=\"app\",table=\"events\"} 2\n",
        "cassette_table_bloom_filter_false_positives_total{keyspace=\"app\",table=\"events\"} 17\n",
        "# TYPE cassette_jvm_gc_pause_seconds summary\n",
        "cassette_storage_commitlog_syncs_total 250\n",
        "cassette_storage_commitlog_sync_seconds_max 0.45\n");
  }

  @Test
  void promtoolFindsNothingToSayAboutTheMetricsText() throws Exception {
    File promtool = new File("/usr/bin/promtool");
    assumeThat(promtool.canExecute()).as("promtool installed (Debian package prometheus)").isTrue();
    HttpResponse<String> r = get("/metrics");
    Process p = new ProcessBuilder(promtool.getPath(), "check", "metrics").redirectErrorStream(true).start();
    p.getOutputStream().write(r.body().getBytes(StandardCharsets.UTF_8));
    p.getOutputStream().close();
    assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
    assertThat(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isEmpty();
    assertThat(p.exitValue()).isZero();
  }

  @Test
  void jsonEndpointHoldsTheFiguresTheDashboardShows() throws Exception {
    HttpResponse<String> r = get("/api/dashboard.json");
    assertThat(r.statusCode()).isEqualTo(200);
    String json = r.body();
    assertThat(number(json, "\"door\":\"cql\",\"requests\"")).isEqualTo(1000);
    assertThat(number(json, "\"door\":\"resp\",\"requests\"")).isEqualTo(40);
    assertThat(number(json, "\"commitLogAppends\"")).isEqualTo(100);
    assertThat(number(json, "\"fsyncs\"")).isEqualTo(250);
    assertThat(number(json, "\"fsyncMaxMillis\"")).isEqualTo(450.0);
    assertThat(number(json, "\"backPressureWaits\"")).isEqualTo(4);
    assertThat(number(json, "\"flashWear\"")).isEqualTo(3.0);
    assertThat(number(json, "\"tablesBytes\"")).isEqualTo(123_456_789 + 4096);
    assertThat(number(json, "\"compactionsPending\"")).isEqualTo(2);
    assertThat(number(json, "\"thresholdMillis\"")).isEqualTo(100);
    assertThat(json).contains("\"cluster\":\"Board Cluster\"", "\"event\":\"commitlog-fsync\"",
        "\"worstContext\":\"CommitLog-1-2.log\"", "\"keyspace\":\"app\",\"table\":\"events\"",
        "ALLOW FILTERING", "\\u003cscript>");
    assertThat(json).doesNotContain("<script>");
  }

  @Test
  void doctorAndLatencyEndpointsServeTheReport() throws Exception {
    String doctor = get("/api/latency/doctor").body();
    assertThat(doctor).contains("1. commitlog-fsync: 1 latency spike", "Worst all time event 450ms (CommitLog-1-2.log)");
    String latency = get("/api/latency").body();
    assertThat(latency).contains("\"table\":\"Event", "commitlog-fsync", "\"doctor\":\"I have observed");
  }

  @Test
  void flashWearComesFromTheEngineUntilStorageFeedsIt() {
    NodeMetrics m = new NodeMetrics(new LatencyMonitor(100, System::currentTimeMillis));
    Dashboard.register(new AdminHttpServer("127.0.0.1", 0, loop), m, engineWith(table("app", "events", EVENTS)), dir,
        "c", "l");
    // (100,000 commit-log bytes + 250,000,000 SSTable bytes) per 100,000 logged bytes
    assertThat(m.flashWear().ratio()).isEqualTo(2501.0);
  }

  @Test
  void pageIsSelfContained() throws Exception {
    HttpResponse<String> r = get("/");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("content-type")).hasValue("text/html; charset=utf-8");
    String html = r.body();
    assertThat(html).contains("<canvas id=\"chart-throughput\"", "<canvas id=\"chart-latency\"",
        "<canvas id=\"chart-events\"", "id=\"doctor\"", "id=\"flash-wear\"", "id=\"table-rows\"",
        "fetch(\"/api/dashboard.json\"");
    assertThat(html).doesNotContain("http://", "https://", "src=", "<link", "innerHTML", "@import");
  }

  @Test
  void configuredThresholdsReachTheMonitorAndTheDoctorQuotesTheSettings() {
    NodeMetrics m = new NodeMetrics(new LatencyMonitor(100, System::currentTimeMillis));
    var config = ConfigLoader.load(null, Map.of(), Map.of(
        "commitlog_sync", new ConfigLoader.FlagValue("batch", "--commitlog-sync")));
    MonitorSettings.apply(config, m);
    m.storage().commitLogSynced(800_000, "CommitLog-9.log");
    assertThat(m.latencyDoctor().report()).contains("commitlog_sync is batch", "commitlog_sync_period (now 10000ms)",
        "set commitlog_sync: periodic");
    assertThat(MonitorSettings.describe(config)).containsEntry("compaction_throughput", "64MiB/s");
  }

  /** Opens the page in headless Chromium, lets its script poll, and compares the rendered figures with the JSON. */
  @Test
  void chromiumRendersTheFiguresAndChartsFromTheJson() throws Exception {
    File chromium = new File("/usr/bin/chromium");
    assumeThat(chromium.canExecute()).as("Debian's chromium installed").isTrue();
    Path profile = Files.createDirectories(dir.resolve("chromium-profile"));
    Path screenshot = Path.of("target", "dashboard.png").toAbsolutePath();
    Files.createDirectories(screenshot.getParent());
    String dom = chromium(chromium, profile, "--dump-dom");
    assertThat(dom).contains("data-updated=");
    assertThat(text(dom, "cql-requests")).isEqualTo("1,000");
    assertThat(text(dom, "resp-requests")).isEqualTo("40");
    assertThat(text(dom, "errors")).isEqualTo("2");
    assertThat(text(dom, "cql-latency")).isEqualTo("0.50 / 0.99 / 1.00 ms");
    assertThat(text(dom, "cl-fsyncs")).isEqualTo("250");
    assertThat(text(dom, "cl-fsync-max")).isEqualTo("450 ms");
    assertThat(text(dom, "memtables")).isEqualTo("5.00 MiB / 32.0 MiB");
    assertThat(text(dom, "flash-wear")).isEqualTo("3.00\u00d7");
    assertThat(text(dom, "disk-tables")).isEqualTo("117.7 MiB");
    assertThat(text(dom, "compactions-pending")).isEqualTo("2");
    assertThat(text(dom, "threshold")).isEqualTo("100 ms");
    assertThat(text(dom, "node-cluster")).isEqualTo("Board Cluster");
    assertThat(text(dom, "live")).isEqualTo("live");
    assertThat(text(dom, "doctor")).contains("commitlog-fsync");
    // Each chart says how many points it drew: the events chart holds the fsync stall (and any GC pause).
    assertThat(attribute(dom, "chart-events", "data-points")).isGreaterThanOrEqualTo(1);
    assertThat(attribute(dom, "chart-throughput", "data-points")).isGreaterThanOrEqualTo(2);
    assertThat(dom).contains("<td>events</td>", "<td>users</td>", "CommitLog-1-2.log",
        "&lt;script&gt;alert(1)&lt;/script&gt;");
    chromium(chromium, profile, "--screenshot=" + screenshot);
    assertThat(Files.size(screenshot)).isGreaterThan(10_000);
  }

  private String chromium(File chromium, Path profile, String action) throws Exception {
    Process p = new ProcessBuilder(chromium.getPath(), "--headless", "--no-sandbox", "--disable-gpu",
        "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--user-data-dir=" + profile, "--window-size=1280,1100", "--hide-scrollbars",
        "--virtual-time-budget=5000", action, base + "/")
        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    byte[] out = p.getInputStream().readAllBytes();
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    return new String(out, StandardCharsets.UTF_8);
  }

  private static String text(String dom, String id) {
    Matcher m = Pattern.compile("id=\"" + id + "\"[^>]*>([^<]*)<").matcher(dom);
    assertThat(m.find()).as("element #" + id).isTrue();
    return m.group(1).replace("&amp;", "&");
  }

  private static int attribute(String dom, String id, String attribute) {
    Matcher m = Pattern.compile("id=\"" + id + "\"[^>]*" + attribute + "=\"([0-9]+)\"").matcher(dom);
    assertThat(m.find()).as(attribute + " of #" + id).isTrue();
    return Integer.parseInt(m.group(1));
  }

  private static double number(String json, String key) {
    Matcher m = Pattern.compile(Pattern.quote(key) + ":(-?[0-9.Ee+-]+)").matcher(json);
    assertThat(m.find()).as(key + " in " + json).isTrue();
    return Double.parseDouble(m.group(1));
  }

  private HttpResponse<String> get(String path) throws Exception {
    return client.send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(10)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static Table table(String keyspace, String name, TableMetrics m) {
    TableSpec spec = TableSpec.withDefaults(keyspace, name, UUID.nameUUIDFromBytes((keyspace + name).getBytes()));
    return (Table) Proxy.newProxyInstance(Table.class.getClassLoader(), new Class<?>[] {Table.class},
        (proxy, method, args) -> switch (method.getName()) {
          case "spec" -> spec;
          case "metrics" -> m;
          case "toString" -> keyspace + "." + name;
          default -> throw new UnsupportedOperationException(method.getName());
        });
  }

  private static Engine engineWith(Table... tables) {
    return (Engine) Proxy.newProxyInstance(Engine.class.getClassLoader(), new Class<?>[] {Engine.class},
        (proxy, method, args) -> switch (method.getName()) {
          case "tables" -> List.of(tables);
          case "metrics" -> ENGINE;
          case "toString" -> "test engine";
          default -> throw new UnsupportedOperationException(method.getName());
        });
  }
}
