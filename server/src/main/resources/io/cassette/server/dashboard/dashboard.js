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
  set("flash-wear", disk.flashWear == null ? "-" : disk.flashWear.toFixed(2) + "\u00d7");
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
