package io.cassette.server.dashboard;

/**
 * The dashboard: one HTML page with its CSS and JavaScript inline, so it works on a board with
 * no internet. It polls {@code /api/dashboard.json} every {@code POLL_MS} and draws its charts on
 * canvases by hand (no framework, no external resource). Text from the node (slow statements,
 * table names) is set with {@code textContent}, never parsed as HTML.
 *
 * <p>Elements with an {@code id} hold one figure each, so tests (and curious users) can find them.
 */
final class DashboardPage {
  private DashboardPage() {}

  static final String HTML = """
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Cassette dashboard</title>
<style>
  :root { --bg:#f4f5f7; --card:#fff; --ink:#1d2430; --mute:#6b7280; --line:#e3e6ea;
          --cql:#2563eb; --resp:#dc2626; --ok:#16a34a; --warn:#d97706; }
  * { box-sizing: border-box; }
  body { margin:0; font:14px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background:var(--bg); color:var(--ink); }
  header { display:flex; align-items:center; gap:18px; padding:10px 20px; background:#111827; color:#f9fafb; flex-wrap:wrap; }
  header h1 { font-size:18px; margin:0; letter-spacing:.5px; }
  header .kv { color:#cbd5e1; font-size:13px; }
  header .kv b { color:#fff; font-weight:600; }
  #live { margin-left:auto; font-size:12px; padding:2px 8px; border-radius:10px; background:#374151; }
  #live.ok { background:var(--ok); } #live.stale { background:var(--warn); }
  main { padding:14px 20px; display:grid; grid-template-columns:repeat(12, 1fr); gap:12px; }
  .card { background:var(--card); border:1px solid var(--line); border-radius:8px; padding:10px 14px; min-width:0; }
  .card h2 { font-size:12px; text-transform:uppercase; letter-spacing:.6px; color:var(--mute); margin:0 0 6px; font-weight:600; }
  .s3 { grid-column:span 3; } .s4 { grid-column:span 4; } .s6 { grid-column:span 6; } .s8 { grid-column:span 8; } .s12 { grid-column:span 12; }
  @media (max-width: 900px) { .s3,.s4,.s6,.s8 { grid-column:span 12; } }
  .big { font-size:26px; font-weight:600; font-variant-numeric:tabular-nums; }
  .row { display:flex; gap:18px; flex-wrap:wrap; }
  .fig { min-width:90px; } .fig .lbl { font-size:12px; color:var(--mute); }
  .fig .val { font-size:18px; font-weight:600; font-variant-numeric:tabular-nums; }
  .cql { color:var(--cql); } .resp { color:var(--resp); }
  canvas { width:100%; height:170px; display:block; }
  table { width:100%; border-collapse:collapse; font-size:13px; font-variant-numeric:tabular-nums; }
  th, td { text-align:left; padding:4px 6px; border-bottom:1px solid var(--line); white-space:nowrap; }
  td.wrap { white-space:normal; word-break:break-all; }
  th { color:var(--mute); font-weight:600; font-size:12px; }
  td.n, th.n { text-align:right; }
  .bar { height:12px; background:var(--line); border-radius:6px; overflow:hidden; margin:6px 0; }
  .bar > div { height:100%; background:var(--cql); width:0; }
  pre#doctor { white-space:pre-wrap; font:13px/1.45 ui-monospace, Menlo, Consolas, monospace; background:#f8fafc;
               border:1px solid var(--line); border-radius:6px; padding:10px; margin:0; max-height:340px; overflow:auto; }
  .empty { color:var(--mute); font-style:italic; }
  .legend span { margin-right:12px; font-size:12px; } .legend i { display:inline-block; width:10px; height:10px; border-radius:2px; margin-right:4px; vertical-align:-1px; }
</style>
</head>
<body>
<header>
  <h1>Cassette</h1>
  <span class="kv">cluster <b id="node-cluster">-</b></span>
  <span class="kv">node <b id="node-listen">-</b></span>
  <span class="kv">version <b id="node-version">-</b></span>
  <span class="kv">up <b id="node-uptime">-</b></span>
  <span class="kv">heap <b id="node-heap">-</b></span>
  <span class="kv">threads <b id="node-threads">-</b></span>
  <span id="live">connecting</span>
</header>
<main>
  <section class="card s3"><h2>Throughput</h2>
    <div class="row">
      <div class="fig"><div class="lbl">CQL req/s</div><div class="val cql" id="cql-rate">-</div></div>
      <div class="fig"><div class="lbl">Redis req/s</div><div class="val resp" id="resp-rate">-</div></div>
    </div>
    <div class="row">
      <div class="fig"><div class="lbl">CQL total</div><div class="val" id="cql-requests">-</div></div>
      <div class="fig"><div class="lbl">Redis total</div><div class="val" id="resp-requests">-</div></div>
    </div>
    <div class="row">
      <div class="fig"><div class="lbl">errors</div><div class="val" id="errors">-</div></div>
      <div class="fig"><div class="lbl">connections</div><div class="val" id="connections">-</div></div>
    </div>
  </section>
  <section class="card s4"><h2>Requests per second</h2>
    <canvas id="chart-throughput"></canvas>
    <div class="legend"><span><i style="background:var(--cql)"></i>CQL</span><span><i style="background:var(--resp)"></i>Redis</span></div>
  </section>
  <section class="card s5" style="grid-column:span 5"><h2>Latency, last window (ms)</h2>
    <canvas id="chart-latency"></canvas>
    <div class="legend"><span><i style="background:var(--cql)"></i>CQL p99</span><span><i style="background:#93c5fd"></i>CQL p50</span>
      <span><i style="background:var(--resp)"></i>Redis p99</span><span><i style="background:#fca5a5"></i>Redis p50</span></div>
    <div class="row">
      <div class="fig"><div class="lbl">CQL p50 / p99 / max since start</div><div class="val cql" id="cql-latency">-</div></div>
      <div class="fig"><div class="lbl">Redis p50 / p99 / max since start</div><div class="val resp" id="resp-latency">-</div></div>
    </div>
  </section>

  <section class="card s4"><h2>Disk and flash wear</h2>
    <div class="row">
      <div class="fig"><div class="lbl">tables on disk</div><div class="val" id="disk-tables">-</div></div>
      <div class="fig"><div class="lbl">free</div><div class="val" id="disk-free">-</div></div>
      <div class="fig"><div class="lbl">of</div><div class="val" id="disk-total">-</div></div>
    </div>
    <div class="bar" title="device in use"><div id="disk-bar"></div></div>
    <div class="row">
      <div class="fig"><div class="lbl">flash wear (bytes written per user byte)</div><div class="big" id="flash-wear">-</div></div>
    </div>
    <div class="row">
      <div class="fig"><div class="lbl">user data</div><div class="val" id="wear-user">-</div></div>
      <div class="fig"><div class="lbl">commit log</div><div class="val" id="wear-commitlog">-</div></div>
      <div class="fig"><div class="lbl">flushes</div><div class="val" id="wear-flush">-</div></div>
      <div class="fig"><div class="lbl">compactions</div><div class="val" id="wear-compaction">-</div></div>
    </div>
  </section>
  <section class="card s4"><h2>Commit log, memtables, compactions</h2>
    <div class="row">
      <div class="fig"><div class="lbl">written</div><div class="val" id="cl-bytes">-</div></div>
      <div class="fig"><div class="lbl">segments</div><div class="val" id="cl-segments">-</div></div>
      <div class="fig"><div class="lbl">fsyncs</div><div class="val" id="cl-fsyncs">-</div></div>
      <div class="fig"><div class="lbl">fsync p99</div><div class="val" id="cl-fsync-p99">-</div></div>
      <div class="fig"><div class="lbl">fsync max</div><div class="val" id="cl-fsync-max">-</div></div>
      <div class="fig"><div class="lbl">writes held back</div><div class="val" id="cl-backpressure">-</div></div>
    </div>
    <div class="row" style="margin-top:6px">
      <div class="fig"><div class="lbl">memtables</div><div class="val" id="memtables">-</div></div>
      <div class="fig"><div class="lbl">write stalls</div><div class="val" id="write-stalls">-</div></div>
      <div class="fig"><div class="lbl">flushes</div><div class="val" id="flushes">-</div></div>
    </div>
    <div class="row" style="margin-top:6px">
      <div class="fig"><div class="lbl">compactions pending</div><div class="val" id="compactions-pending">-</div></div>
      <div class="fig"><div class="lbl">completed</div><div class="val" id="compactions-completed">-</div></div>
      <div class="fig"><div class="lbl">rewritten</div><div class="val" id="compactions-bytes">-</div></div>
    </div>
  </section>
  <section class="card s4"><h2>JVM</h2>
    <div class="row">
      <div class="fig"><div class="lbl">heap used</div><div class="val" id="heap-used">-</div></div>
      <div class="fig"><div class="lbl">heap max</div><div class="val" id="heap-max">-</div></div>
      <div class="fig"><div class="lbl">processors</div><div class="val" id="processors">-</div></div>
    </div>
    <div class="bar" title="heap in use"><div id="heap-bar"></div></div>
    <div class="row">
      <div class="fig"><div class="lbl">GC pauses</div><div class="val" id="gc-pauses">-</div></div>
      <div class="fig"><div class="lbl">paused in all</div><div class="val" id="gc-total">-</div></div>
      <div class="fig"><div class="lbl">longest</div><div class="val" id="gc-max">-</div></div>
    </div>
  </section>

  <section class="card s6"><h2>Latency events (threshold <span id="threshold">-</span>)</h2>
    <canvas id="chart-events"></canvas>
    <div class="legend" id="events-legend"></div>
    <table><thead><tr><th>event</th><th>latest</th><th class="n">latest ms</th><th class="n">max ms</th><th class="n">spikes</th><th>worst in</th></tr></thead>
      <tbody id="events-rows"></tbody></table>
  </section>
  <section class="card s6"><h2>Latency doctor</h2>
    <pre id="doctor">waiting for the node...</pre>
  </section>

  <section class="card s6"><h2>Requests by type</h2>
    <table><thead><tr><th>door</th><th>type</th><th class="n">count</th><th class="n">errors</th><th class="n">p50 ms</th><th class="n">p99 ms</th><th class="n">max ms</th></tr></thead>
      <tbody id="request-rows"></tbody></table>
  </section>
  <section class="card s6"><h2>Slow log</h2>
    <table><thead><tr><th>door</th><th>time</th><th class="n">ms</th><th>statement</th><th>client</th></tr></thead>
      <tbody id="slowlog-rows"></tbody></table>
  </section>

  <section class="card s12" id="ring-card" hidden><h2>Ring (metadata epoch <span id="ring-epoch">-</span>)</h2>
    <table><thead><tr><th>--</th><th>address</th><th>dc</th><th>rack</th><th>state</th><th class="n">load</th><th class="n">tokens</th><th class="n">owns</th><th>host id</th></tr></thead>
      <tbody id="ring-rows"></tbody></table>
  </section>

  <section class="card s12"><h2>Tables</h2>
    <table><thead><tr><th>keyspace</th><th>table</th><th class="n">on disk</th><th class="n">SSTables</th><th class="n">memtable</th>
      <th class="n">reads</th><th class="n">writes</th><th class="n">written</th><th class="n">pending compactions</th><th class="n">bloom false +</th></tr></thead>
      <tbody id="table-rows"></tbody></table>
  </section>
</main>
<script>
"use strict";
var POLL_MS = 2000, KEEP = 150;
var EVENT_COLORS = ["#7c3aed", "#0891b2", "#ea580c", "#65a30d", "#db2777", "#4b5563", "#ca8a04"];
var prev = null, points = { cqlRate: [], respRate: [], cqlP99: [], cqlP50: [], respP99: [], respP50: [] };

function $(id) { return document.getElementById(id); }
function set(id, text) { var e = $(id); if (e) e.textContent = text; }
function bytes(n) {
  if (n == null) return "-";
  var u = ["B", "KiB", "MiB", "GiB", "TiB"], i = 0;
  while (Math.abs(n) >= 1024 && i < u.length - 1) { n /= 1024; i++; }
  return (i === 0 ? n : n.toFixed(n < 10 ? 2 : 1)) + " " + u[i];
}
function num(n) { return n == null ? "-" : Math.round(n).toLocaleString("en-US"); }
function ms(n) { return n == null ? "-" : (n < 10 ? n.toFixed(2) : n < 100 ? n.toFixed(1) : Math.round(n)) + " ms"; }
function msBare(n) { return n == null ? "-" : (n < 10 ? n.toFixed(2) : n < 100 ? n.toFixed(1) : String(Math.round(n))); }
function duration(s) {
  var d = Math.floor(s / 86400), h = Math.floor(s % 86400 / 3600), m = Math.floor(s % 3600 / 60);
  return d > 0 ? d + "d " + h + "h" : h > 0 ? h + "h " + m + "m" : m + "m " + (s % 60) + "s";
}
function clock(epochSecond) { return new Date(epochSecond * 1000).toISOString().substring(11, 19); }
function push(list, t, v) { list.push([t, v]); if (list.length > KEEP) list.shift(); }

function fillRows(id, rows, columns, empty) {
  var body = $(id);
  while (body.firstChild) body.removeChild(body.firstChild);
  if (rows.length === 0) {
    var tr = document.createElement("tr"), td = document.createElement("td");
    td.colSpan = columns; td.className = "empty"; td.textContent = empty; tr.appendChild(td); body.appendChild(tr);
    return;
  }
  rows.forEach(function (cells) {
    var tr = document.createElement("tr");
    cells.forEach(function (c) {
      var td = document.createElement("td");
      if (typeof c === "object" && c !== null) { td.textContent = c.text; td.className = c.cls || ""; }
      else { td.textContent = c; }
      tr.appendChild(td);
    });
    body.appendChild(tr);
  });
}
function n(v) { return { text: v, cls: "n" }; }

/** Draws lines (or dots) of series [{color, points:[[t,v]], dots}] with a y axis from 0. */
function draw(canvas, series, unit) {
  var dpr = window.devicePixelRatio || 1, w = canvas.clientWidth, h = canvas.clientHeight;
  canvas.width = w * dpr; canvas.height = h * dpr;
  var g = canvas.getContext("2d");
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  g.clearRect(0, 0, w, h);
  var left = 46, right = 8, top = 8, bottom = 20, tMin = Infinity, tMax = -Infinity, vMax = 0;
  series.forEach(function (s) { s.points.forEach(function (p) {
    tMin = Math.min(tMin, p[0]); tMax = Math.max(tMax, p[0]); if (p[1] != null) vMax = Math.max(vMax, p[1]); }); });
  var drawn = 0;
  series.forEach(function (s) { s.points.forEach(function (p) { if (p[1] != null) drawn++; }); });
  canvas.setAttribute("data-points", String(drawn));
  g.strokeStyle = "#e3e6ea"; g.fillStyle = "#6b7280"; g.font = "11px system-ui, sans-serif"; g.lineWidth = 1;
  if (!isFinite(tMin)) { g.fillText("no data yet", left, h / 2); return; }
  if (vMax <= 0) vMax = 1;
  var step = Math.pow(10, Math.floor(Math.log10(vMax))), top1 = Math.ceil(vMax / step) * step;
  if (tMax === tMin) { tMin -= 1; tMax += 1; }
  function x(t) { return left + (t - tMin) / (tMax - tMin) * (w - left - right); }
  function y(v) { return top + (1 - v / top1) * (h - top - bottom); }
  for (var i = 0; i <= 4; i++) {
    var v = top1 * i / 4, yy = Math.round(y(v)) + 0.5;
    g.beginPath(); g.moveTo(left, yy); g.lineTo(w - right, yy); g.stroke();
    g.fillText((v >= 100 ? Math.round(v) : +v.toPrecision(2)) + unit, 2, yy + 4);
  }
  g.fillText(clock(tMin), left, h - 4);
  var endLabel = clock(tMax); g.fillText(endLabel, w - right - g.measureText(endLabel).width, h - 4);
  series.forEach(function (s) {
    g.strokeStyle = s.color; g.fillStyle = s.color; g.lineWidth = 2;
    if (s.dots) {
      s.points.forEach(function (p) { g.beginPath(); g.arc(x(p[0]), y(p[1]), 3.5, 0, 2 * Math.PI); g.fill(); });
      return;
    }
    g.beginPath();
    var started = false;
    s.points.forEach(function (p) {
      if (p[1] == null) { started = false; return; }
      if (started) g.lineTo(x(p[0]), y(p[1])); else { g.moveTo(x(p[0]), y(p[1])); started = true; }
    });
    g.stroke();
  });
}

function render(d) {
  var t = d.node.now / 1000, cql = d.doors[0], resp = d.doors[1];
  set("node-cluster", d.node.cluster); set("node-listen", d.node.listen); set("node-version", d.node.version);
  set("node-uptime", duration(d.node.uptimeSeconds));
  set("node-heap", bytes(d.node.heapUsedBytes) + " / " + bytes(d.node.heapMaxBytes));
  set("node-threads", d.node.threads);
  set("cql-requests", num(cql.requests)); set("resp-requests", num(resp.requests));
  set("errors", num(cql.errors + resp.errors)); set("connections", num(cql.connections + resp.connections));
  if (prev) {
    var dt = Math.max(0.001, (d.node.now - prev.node.now) / 1000);
    var cr = (cql.requests - prev.doors[0].requests) / dt, rr = (resp.requests - prev.doors[1].requests) / dt;
    set("cql-rate", num(cr)); set("resp-rate", num(rr));
    push(points.cqlRate, t, cr); push(points.respRate, t, rr);
  }
  function q(p, k) { return p.count > 0 ? p[k] : null; }
  function trio(p) { return p.count > 0 ? msBare(p.p50) + " / " + msBare(p.p99) + " / " + ms(p.max) : "-"; }
  set("cql-latency", trio(cql.allTime)); set("resp-latency", trio(resp.allTime));
  push(points.cqlP99, t, q(cql.recent, "p99")); push(points.cqlP50, t, q(cql.recent, "p50"));
  push(points.respP99, t, q(resp.recent, "p99")); push(points.respP50, t, q(resp.recent, "p50"));
  draw($("chart-throughput"), [{ color: "#2563eb", points: points.cqlRate }, { color: "#dc2626", points: points.respRate }], "");
  draw($("chart-latency"), [{ color: "#93c5fd", points: points.cqlP50 }, { color: "#2563eb", points: points.cqlP99 },
    { color: "#fca5a5", points: points.respP50 }, { color: "#dc2626", points: points.respP99 }], "");

  var disk = d.disk;
  set("disk-tables", bytes(disk.tablesBytes)); set("disk-free", bytes(disk.freeBytes)); set("disk-total", bytes(disk.totalBytes));
  if (disk.totalBytes) $("disk-bar").style.width = (100 * (disk.totalBytes - disk.freeBytes) / disk.totalBytes).toFixed(1) + "%";
  set("flash-wear", disk.flashWear == null ? "-" : disk.flashWear.toFixed(2) + "\\u00d7");
  set("wear-user", bytes(disk.userBytesWritten)); set("wear-commitlog", bytes(disk.commitLogBytesWritten));
  set("wear-flush", bytes(disk.flushBytesWritten)); set("wear-compaction", bytes(disk.compactionBytesWritten));

  var st = d.storage;
  set("cl-bytes", bytes(st.commitLogBytes)); set("cl-segments", num(st.commitLogSegments)); set("cl-fsyncs", num(st.fsyncs));
  set("cl-fsync-p99", st.fsyncAllTime.count ? ms(st.fsyncAllTime.p99) : "-");
  set("cl-fsync-max", st.fsyncs ? ms(st.fsyncMaxMillis) : "-");
  set("cl-backpressure", num(st.backPressureWaits));
  set("memtables", bytes(st.memtableBytes) + " / " + bytes(st.memtableBudgetBytes));
  set("write-stalls", num(st.writeStalls)); set("flushes", num(st.flushes));
  set("compactions-pending", num(st.compactionsPending)); set("compactions-completed", num(st.compactionsCompleted));
  set("compactions-bytes", bytes(st.compactionBytesWritten));

  set("heap-used", bytes(d.node.heapUsedBytes)); set("heap-max", bytes(d.node.heapMaxBytes)); set("processors", d.node.processors);
  $("heap-bar").style.width = (100 * d.node.heapUsedBytes / d.node.heapMaxBytes).toFixed(1) + "%";
  set("gc-pauses", num(d.node.gcPauses)); set("gc-total", ms(d.node.gcPauseMillisTotal)); set("gc-max", ms(d.node.gcPauseMaxMillis));

  var lat = d.latency;
  set("threshold", lat.thresholdMillis > 0 ? lat.thresholdMillis + " ms" : "disabled");
  var legend = $("events-legend");
  while (legend.firstChild) legend.removeChild(legend.firstChild);
  var eventSeries = lat.events.map(function (e, i) {
    var color = EVENT_COLORS[i % EVENT_COLORS.length], span = document.createElement("span"), dot = document.createElement("i");
    dot.style.background = color; span.appendChild(dot); span.appendChild(document.createTextNode(e.event)); legend.appendChild(span);
    return { color: color, dots: true, points: e.history };
  });
  draw($("chart-events"), eventSeries, "");
  fillRows("events-rows", lat.events.map(function (e) {
    return [e.event, clock(e.time), n(msBare(e.latestMillis)), n(msBare(e.maxMillis)), n(num(e.spikes)), { text: e.worstContext || "", cls: "wrap" }];
  }), 6, lat.thresholdMillis > 0 ? "no latency spike so far" : "latency monitor disabled");
  set("doctor", lat.doctor);

  fillRows("request-rows", d.requests.map(function (r) {
    return [r.door, r.type, n(num(r.count)), n(num(r.errors)), n(msBare(r.allTime.p50)), n(msBare(r.allTime.p99)), n(msBare(r.allTime.max))];
  }), 7, "no requests yet");
  fillRows("slowlog-rows", d.slowlog.map(function (s) {
    return [s.door, clock(s.time), n(msBare(s.durationMillis)), { text: s.statement, cls: "wrap" }, s.client];
  }), 5, "no slow request");
  fillRows("table-rows", d.tables.map(function (r) {
    return [r.keyspace, r.table, n(bytes(r.bytesOnDisk)), n(num(r.sstables)), n(bytes(r.memtableBytes)), n(num(r.reads)),
      n(num(r.writes)), n(bytes(r.bytesWritten)), n(num(r.pendingCompactions)), n(num(r.bloomFilterFalsePositives))];
  }), 10, "no tables");
  if (d.ring) {
    $("ring-card").hidden = false; set("ring-epoch", d.ring.epoch);
    fillRows("ring-rows", d.ring.nodes.map(function (r) {
      return [r.state, r.address, r.datacenter, r.rack, r.nodeState, n(r.loadBytes < 0 ? "?" : bytes(r.loadBytes)),
        n(num(r.tokens.length)), n((100 * r.owns).toFixed(1) + "%"), r.hostId];
    }), 9, "no members yet");
  }
  prev = d;
  document.body.setAttribute("data-updated", String(d.node.now));
}

function poll() {
  fetch("/api/dashboard.json", { cache: "no-store" })
    .then(function (r) { if (!r.ok) throw new Error("HTTP " + r.status); return r.json(); })
    .then(function (d) { render(d); $("live").textContent = "live"; $("live").className = "ok"; })
    .catch(function (e) { $("live").textContent = "no answer: " + e.message; $("live").className = "stale"; })
    .then(function () { setTimeout(poll, POLL_MS); });
}
poll();
</script>
</body>
</html>
""";
}
