package io.cassette.server.dashboard;

import io.cassette.metrics.NodeMetrics;
import io.cassette.metrics.PrometheusTextWriter;
import io.cassette.server.config.Config;
import io.cassette.server.config.ConfigKeys;
import io.cassette.server.http.AdminHttpServer;
import io.cassette.server.http.AdminHttpServer.Response;
import io.cassette.storage.Engine;
import io.cassette.storage.Table;
import java.nio.file.Path;

/**
 * Seeing inside a node over its HTTP port:
 *
 * <ul>
 *   <li>{@code /metrics}: every metric in Prometheus text format, per-table statistics included;
 *   <li>{@code /api/dashboard.json}: the small document the dashboard polls;
 *   <li>{@code /api/latency}: latency events, their history and the doctor's report (nodetool latency);
 *   <li>{@code /api/latency/doctor}: the doctor's report as plain text;
 *   <li>{@code /}: the dashboard, one self-contained page (no external resource, no framework).
 * </ul>
 */
public final class Dashboard {
  private Dashboard() {}

  /**
   * Registers the endpoints, starts the JVM metrics, and applies the latency monitor and slow
   * log settings from {@code config}. Call once per node, before the HTTP port starts.
   */
  public static void register(AdminHttpServer http, NodeMetrics metrics, Engine engine, Config config) {
    MonitorSettings.apply(config, metrics);
    register(http, metrics, engine, config.dataFileDirectory(), config.string(ConfigKeys.CLUSTER_NAME),
        config.string(ConfigKeys.LISTEN_ADDRESS));
  }

  /** The same without a {@link Config}: for tests and embedders. */
  public static void register(AdminHttpServer http, NodeMetrics metrics, Engine engine, Path dataDirectory,
                              String clusterName, String listen) {
    metrics.registry().setCollector("storage-tables", new StorageCollector(engine));
    metrics.flashWear().readFrom(() -> engine.metrics().commitLogBytes(), () -> {
      long written = engine.metrics().commitLogBytes();
      for (Table t : engine.tables()) {
        written += t.metrics().bytesWritten();
      }
      return written;
    });
    DashboardJson json = new DashboardJson(metrics, engine, dataDirectory, clusterName, listen);
    http.register("/metrics", req -> new Response(200, PrometheusTextWriter.CONTENT_TYPE,
        PrometheusTextWriter.render(metrics.registry())));
    http.register("/api/dashboard.json", req -> Response.json(json.dashboard()));
    http.register("/api/latency", req -> Response.json(json.latency()));
    http.register("/api/latency/doctor", req -> Response.text(metrics.latencyDoctor().report()));
    Response page = new Response(200, "text/html; charset=utf-8", DashboardPage.HTML);
    http.register("/", req -> page);
    http.register("/dashboard", req -> page);
  }
}
