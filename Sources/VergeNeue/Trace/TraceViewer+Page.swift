// The timeline page of `TraceViewer`: one HTML file with its styles and
// script inline, no network. `__VERGE_TRACE_DATA__` is replaced by the
// trace's lines (or nothing: the page then opens a file the user picks).
extension TraceViewer {
  static let template = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Verge trace</title>
<style>
:root {
  color-scheme: light dark;
  --bg: #ffffff; --fg: #1d1d1f; --muted: #6b6b73; --line: #e4e4ea; --panel: #f5f5f8;
  --sel: #d9e8ff; --hover: #eef3fb; --accent: #0a62d0; --ok: #2b9348; --fail: #d1432c;
  --cancel: #b86e00; --activity: #8a3fb3; --commit: #0b8585; --before: #b42318; --after: #1a7f37;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #18191c; --fg: #e6e6ea; --muted: #9a9aa4; --line: #2f3036; --panel: #212226;
    --sel: #1f3b63; --hover: #26292f; --accent: #6aa9ff; --ok: #4cc46f; --fail: #ff6f5a;
    --cancel: #f0a93a; --activity: #c792ea; --commit: #41c7c7; --before: #ff8a80; --after: #7ee29b;
  }
}
* { box-sizing: border-box; }
html, body { margin: 0; height: 100%; background: var(--bg); color: var(--fg);
  font: 13px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
body { display: grid; grid-template-rows: auto auto 1fr; }
header { display: flex; gap: 10px; align-items: center; padding: 8px 12px; background: var(--panel);
  border-bottom: 1px solid var(--line); flex-wrap: wrap; }
header h1 { font-size: 14px; margin: 0 6px 0 0; font-weight: 600; }
header .meta { color: var(--muted); }
input[type=search] { font: inherit; color: inherit; background: var(--bg); border: 1px solid var(--line);
  border-radius: 6px; padding: 4px 8px; width: 200px; }
label.open { border: 1px solid var(--line); border-radius: 6px; padding: 3px 8px; cursor: pointer; background: var(--bg); }
label.open input { display: none; }
#count { font-weight: 600; }
#notice { display: none; padding: 6px 12px; background: #fff4d6; color: #5c4400; border-bottom: 1px solid var(--line); }
@media (prefers-color-scheme: dark) { #notice { background: #3d3117; color: #f5d99a; } }
main { display: grid; grid-template-columns: minmax(480px, 3fr) minmax(300px, 2fr); min-height: 0; }
#listPane { display: grid; grid-template-rows: auto 1fr; min-height: 0; border-right: 1px solid var(--line); }
.cols, .row { display: grid; grid-template-columns: 52px 64px minmax(110px, 200px) minmax(80px, 1fr) 38%; gap: 8px;
  align-items: center; padding: 0 10px; }
.cols { height: 26px; color: var(--muted); font-size: 12px; border-bottom: 1px solid var(--line); background: var(--panel); }
.cols .axis { display: flex; justify-content: space-between; font-variant-numeric: tabular-nums; }
#scroller { overflow-y: auto; overflow-x: hidden; position: relative; outline: none; }
#spacer { position: relative; width: 100%; }
.row { position: absolute; left: 0; right: 0; height: 24px; white-space: nowrap; cursor: pointer;
  border-bottom: 1px solid var(--line); font-variant-numeric: tabular-nums; }
.row:hover { background: var(--hover); }
.row.selected { background: var(--sel); }
.row > span { overflow: hidden; text-overflow: ellipsis; }
.row .seq, .row .time { color: var(--muted); text-align: right; }
.row .name { font-weight: 600; }
.row .payload { color: var(--muted); font-family: ui-monospace, "SF Mono", Menlo, Consolas, monospace; font-size: 12px; }
.row.commit .name { color: var(--commit); }
.row.activity .name { color: var(--activity); font-weight: 500; }
.row.dropped { color: var(--cancel); }
.row .badge { font-size: 10px; font-weight: 600; border-radius: 4px; padding: 0 4px; margin-left: 4px;
  border: 1px solid currentColor; opacity: .8; }
.lane { position: relative; height: 100%; border-left: 1px dashed var(--line); overflow: hidden; }
.dot { position: absolute; top: 8px; width: 7px; height: 7px; margin-left: -3px; border-radius: 50%; background: var(--accent); }
.row.activity .dot { background: var(--activity); border-radius: 1px; transform: rotate(45deg); }
.row.commit .dot { background: var(--commit); }
.bar { position: absolute; top: 7px; height: 9px; min-width: 3px; border-radius: 3px; background: var(--ok); opacity: .85; }
.bar.failed { background: var(--fail); }
.bar.cancelled { background: repeating-linear-gradient(135deg, var(--cancel) 0 4px, transparent 4px 7px);
  border: 1px solid var(--cancel); min-width: 10px; }
.bar.running { background: var(--muted); opacity: .5; }
.bar.cancelled::after { content: "\2715"; position: absolute; right: -11px; top: -4px; font-size: 10px; color: var(--cancel); }
#detail { overflow: auto; padding: 12px 16px; min-height: 0; }
#detail h2 { font-size: 15px; margin: 0 0 4px; }
#detail h3 { font-size: 12px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); margin: 16px 0 6px; }
#detail .facts { color: var(--muted); }
#detail pre, .change, .stateline { font-family: ui-monospace, "SF Mono", Menlo, Consolas, monospace; font-size: 12px; }
#detail pre { white-space: pre-wrap; word-break: break-word; margin: 0; background: var(--panel); padding: 6px 8px; border-radius: 6px; }
.change { padding: 2px 0; word-break: break-word; }
.change .path { font-weight: 600; }
.change .before { color: var(--before); }
.change .after { color: var(--after); }
.stateline { white-space: pre-wrap; word-break: break-word; padding: 1px 0; }
.effect { padding: 2px 0; }
.outcome { font-weight: 600; }
.outcome.finished { color: var(--ok); } .outcome.failed { color: var(--fail); } .outcome.cancelled { color: var(--cancel); }
.empty { color: var(--muted); padding: 24px; }
kbd { border: 1px solid var(--line); border-bottom-width: 2px; border-radius: 4px; padding: 0 4px; font-size: 11px; }
</style>
</head>
<body>
<header>
  <h1>Verge trace</h1>
  <span class="meta" id="meta"></span>
  <label class="open">Open trace…<input type="file" id="file" accept=".jsonl,.json,.trace,.txt,application/x-ndjson"></label>
  <input type="search" id="filter" placeholder="Filter by action name" aria-label="Filter by action name">
  <input type="search" id="search" placeholder="Search payloads" aria-label="Search payloads">
  <span id="count">no trace</span>
  <span class="meta"><kbd>↑</kbd> <kbd>↓</kbd> to move</span>
</header>
<div id="notice"></div>
<main>
  <section id="listPane">
    <div class="cols"><span style="text-align:right">#</span><span style="text-align:right">ms</span><span>action</span><span>payload</span>
      <span class="axis"><span id="axisFrom"></span><span>effects</span><span id="axisTo"></span></span></div>
    <div id="scroller" tabindex="0"><div id="spacer"></div></div>
  </section>
  <section id="detail"><div class="empty">Open a trace file (a <code>.jsonl</code> a <code>Trace</code> wrote) to see what the store did.</div></section>
</main>
<script id="trace-data" type="application/x-ndjson">__VERGE_TRACE_DATA__</script>
<script>
"use strict";
(function () {
  const ROW = 24, OVERSCAN = 12;
  const $ = (id) => document.getElementById(id);
  const scroller = $("scroller"), spacer = $("spacer"), detail = $("detail");
  let model = null;       // { header, rows, effects, byOrigin, actions, end }
  let shown = [];         // indices into model.rows after filtering
  let selected = -1;      // index into shown
  let rendered = new Map();

  function esc(text) {
    return String(text).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
  }
  function ms(t) { return (t / 1000).toFixed(1); }

  function parse(text) {
    const lines = text.split("\n");
    const records = [];
    let header = null, damaged = 0, unfinished = false;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      if (!line.trim()) continue;
      let record;
      try { record = JSON.parse(line); } catch (e) {
        const last = lines.slice(i + 1).every((l) => !l.trim());
        if (last) unfinished = true; else damaged++;
        continue;
      }
      if (record.kind === "header" && header === null) header = record; else records.push(record);
    }
    return { header, records, damaged, unfinished };
  }

  function build(parsed) {
    const rows = [], effects = new Map(), byOrigin = new Map();
    let actions = 0, lastRow = -1, end = 0, dropped = 0;
    for (const r of parsed.records) {
      if (typeof r.t === "number" && r.t > end) end = r.t;
      switch (r.kind) {
        case "action": case "commit":
          actions++; lastRow = rows.length; rows.push(r); break;
        case "activity":
          rows.push(r); break;
        case "dropped":
          dropped += r.count || 0; rows.push(r); break;
        case "effectStart": {
          const e = { id: r.effect, start: r.t, end: null, outcome: "running", origin: r.origin, originSeq: r.originSeq, row: lastRow };
          effects.set(r.effect, e);
          break;
        }
        case "effectEnd": {
          let e = effects.get(r.effect);
          if (!e) { e = { id: r.effect, start: 0, end: null, outcome: "running", origin: "(before the trace's first record)", row: -1 }; effects.set(r.effect, e); }
          e.end = r.t; e.outcome = r.outcome || "finished"; e.error = r.error;
          break;
        }
      }
    }
    const seqToRow = new Map();
    rows.forEach((r, i) => { if (r.seq != null) seqToRow.set(r.seq, i); });
    for (const e of effects.values()) {
      if (e.originSeq != null && seqToRow.has(e.originSeq)) e.row = seqToRow.get(e.originSeq);
      if (e.row < 0) continue;
      if (!byOrigin.has(e.row)) byOrigin.set(e.row, []);
      byOrigin.get(e.row).push(e);
    }
    return { header: parsed.header, rows, effects, byOrigin, actions, end, dropped, damaged: parsed.damaged, unfinished: parsed.unfinished };
  }

  function load(text) {
    const started = performance.now();
    model = build(parse(text));
    const h = model.header;
    const notes = [];
    if (!h || h.format !== "verge-trace") notes.push("This file has no verge-trace header; showing the records it has.");
    else if (h.version > 1) notes.push("This trace is of format version " + h.version + ", newer than this page (1); some fields may not show.");
    if (model.unfinished) notes.push("The last line was unfinished (the trace was cut while writing); it is skipped.");
    if (model.damaged) notes.push(model.damaged + " damaged lines were skipped.");
    if (model.dropped) notes.push(model.dropped + " events were dropped to keep the trace within its bounds.");
    $("notice").style.display = notes.length ? "block" : "none";
    $("notice").textContent = notes.join(" ");
    $("meta").textContent = h ? [h.store, h.started].filter(Boolean).join(" · ") : "";
    selected = -1;
    applyFilter();
    if (shown.length) select(0);
    window.vergeTrace.loadMilliseconds = performance.now() - started;
  }

  function applyFilter() {
    if (!model) return;
    const name = $("filter").value.trim().toLowerCase();
    const text = $("search").value.trim().toLowerCase();
    const keep = model.rows[shown[selected]];
    shown = [];
    model.rows.forEach((r, i) => {
      if (name && !String(r.name || r.kind).toLowerCase().includes(name)) return;
      if (text && !String(r.payload || "").toLowerCase().includes(text)) return;
      shown.push(i);
    });
    let actions = 0;
    for (const i of shown) { const k = model.rows[i].kind; if (k === "action" || k === "commit") actions++; }
    $("count").textContent = (actions === model.actions ? "" : actions + " of ") + model.actions + (model.actions === 1 ? " action" : " actions");
    spacer.style.height = (shown.length * ROW) + "px";
    selected = keep ? shown.indexOf(model.rows.indexOf(keep)) : -1;
    for (const el of rendered.values()) el.remove();
    rendered.clear();
    render();
    if (selected < 0) showDetail(null);
  }

  function visibleRange() {
    const first = Math.max(0, Math.floor(scroller.scrollTop / ROW) - OVERSCAN);
    const last = Math.min(shown.length, Math.ceil((scroller.scrollTop + scroller.clientHeight) / ROW) + OVERSCAN);
    return [first, last];
  }

  function render() {
    if (!model) return;
    const [first, last] = visibleRange();
    // The lane's scale fits the rows on screen and the effects they started.
    let from = Infinity, to = -Infinity;
    for (let k = first; k < last; k++) {
      const i = shown[k], r = model.rows[i];
      if (typeof r.t === "number") { from = Math.min(from, r.t); to = Math.max(to, r.t); }
      for (const e of model.byOrigin.get(i) || []) { to = Math.max(to, e.end == null ? model.end : e.end); from = Math.min(from, e.start); }
    }
    if (!isFinite(from)) { from = 0; to = 1; }
    if (to - from < 1000) to = from + 1000;
    const scale = (t) => Math.max(0, Math.min(100, ((t - from) / (to - from)) * 96 + 2));
    $("axisFrom").textContent = ms(from) + " ms";
    $("axisTo").textContent = ms(to) + " ms";
    for (const [k, el] of rendered) { if (k < first || k >= last) { el.remove(); rendered.delete(k); } }
    for (let k = first; k < last; k++) {
      let el = rendered.get(k);
      if (!el) { el = document.createElement("div"); el.dataset.k = k; spacer.appendChild(el); rendered.set(k, el); }
      const i = shown[k], r = model.rows[i];
      el.className = "row " + r.kind + (k === selected ? " selected" : "");
      el.style.top = (k * ROW) + "px";
      el.dataset.seq = r.seq == null ? "" : r.seq;
      let lane = "";
      if (typeof r.t === "number") lane += '<i class="dot" style="left:' + scale(r.t) + '%"></i>';
      for (const e of model.byOrigin.get(i) || []) {
        const stop = e.end == null ? model.end : e.end;
        const left = scale(e.start), width = Math.max(0.6, scale(stop) - left);
        lane += '<i class="bar ' + esc(e.outcome) + '" style="left:' + left + '%;width:' + width + '%" title="' + esc("effect #" + e.id + ": " +
          ms(e.start) + " → " + (e.end == null ? "still running" : ms(e.end) + " ms, " + e.outcome)) + '"></i>';
      }
      let name = esc(r.name || r.kind);
      if (r.kind === "dropped") name = esc("⚠ " + (r.count || 0) + " dropped");
      if (r.kind === "activity") name = esc(r.name || "activity") + '<span class="badge">activity</span>';
      if (r.cause && r.cause.kind === "effect") name += '<span class="badge" title="sent by an effect">fx</span>';
      el.innerHTML = '<span class="seq">' + esc(r.seq == null ? "" : r.seq) + '</span><span class="time">' + (typeof r.t === "number" ? ms(r.t) : "") +
        '</span><span class="name">' + name + '</span><span class="payload">' + esc(r.kind === "dropped" ? (r.reason || "") : (r.payload || r.location || "")) +
        '</span><span class="lane">' + lane + "</span>";
    }
  }

  function causeText(c) {
    if (!c) return "";
    if (c.kind === "send") return "sent to the store";
    if (c.kind === "middleware") return "dispatched by a middleware";
    return "sent by " + (c.effect != null ? "effect #" + c.effect : "an effect") + " of " + (c.origin || "?");
  }

  function showDetail(r) {
    if (!r) { detail.innerHTML = '<div class="empty">' + (model && model.rows.length ? "Nothing matches the filter." : "No actions in this trace.") + "</div>"; return; }
    const i = model.rows.indexOf(r);
    let html = "<h2>" + esc(r.kind === "dropped" ? "Dropped events" : (r.name || r.kind)) + "</h2>";
    const facts = [];
    if (r.seq != null) facts.push("#" + r.seq);
    if (typeof r.t === "number") facts.push(ms(r.t) + " ms");
    if (r.duration != null) facts.push("reduced in " + (r.duration / 1000).toFixed(1) + " µs");
    if (r.cause) facts.push(causeText(r.cause));
    if (r.location) facts.push(r.location);
    if (r.kind === "activity" && r.origin) facts.push("from the effect of " + r.origin);
    html += '<div class="facts">' + esc(facts.join(" · ")) + "</div>";
    if (r.kind === "dropped") html += "<p>" + esc((r.count || 0) + " events were dropped here (" + (r.reason || "") + ").") + "</p>";
    if (r.payload) html += "<h3>Payload</h3><pre>" + esc(r.payload) + "</pre>";
    if (r.kind === "action" || r.kind === "commit") {
      html += '<h3>State diff</h3><div id="diff">';
      if (!r.diff || !r.diff.length) html += '<div class="change none">no change</div>';
      else for (const c of r.diff) html += '<div class="change"><span class="path">' + esc(c.path) + '</span>: <span class="before">' + esc(c.before) + '</span> → <span class="after">' + esc(c.after) + "</span></div>";
      html += "</div>";
    }
    const effects = model.byOrigin.get(i) || [];
    if (effects.length) {
      html += "<h3>Effects started</h3>";
      for (const e of effects) html += '<div class="effect">' + esc("effect #" + e.id + ": " + ms(e.start) + " → " + (e.end == null ? "still running" : ms(e.end) + " ms")) +
        ' <span class="outcome ' + esc(e.outcome) + '">' + esc(e.outcome) + "</span>" + (e.error ? " — " + esc(e.error) : "") + "</div>";
    }
    if (r.state) {
      html += '<h3>State after</h3><div id="state">';
      for (const line of r.state) html += '<div class="stateline">' + esc(line) + "</div>";
      html += "</div>";
    }
    detail.innerHTML = html;
  }

  function select(k) {
    if (!shown.length) return;
    selected = Math.max(0, Math.min(shown.length - 1, k));
    const top = selected * ROW;
    if (top < scroller.scrollTop) scroller.scrollTop = top;
    else if (top + ROW > scroller.scrollTop + scroller.clientHeight) scroller.scrollTop = top + ROW - scroller.clientHeight;
    render();
    showDetail(model.rows[shown[selected]]);
  }

  scroller.addEventListener("scroll", () => requestAnimationFrame(render));
  window.addEventListener("resize", () => requestAnimationFrame(render));
  spacer.addEventListener("click", (event) => {
    const row = event.target.closest(".row");
    if (row) { select(Number(row.dataset.k)); scroller.focus({ preventScroll: true }); }
  });
  document.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLInputElement) return;
    const page = Math.max(1, Math.floor(scroller.clientHeight / ROW) - 1);
    const moves = { ArrowDown: 1, ArrowUp: -1, j: 1, k: -1, PageDown: page, PageUp: -page };
    if (event.key in moves) { select(selected + moves[event.key]); event.preventDefault(); }
    else if (event.key === "Home") { select(0); event.preventDefault(); }
    else if (event.key === "End") { select(shown.length - 1); event.preventDefault(); }
  });
  let timer = 0;
  for (const id of ["filter", "search"]) $(id).addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(applyFilter, 80); });
  function readFile(file) {
    const reader = new FileReader();
    reader.onload = () => load(String(reader.result));
    reader.readAsText(file);
  }
  $("file").addEventListener("change", (event) => { if (event.target.files[0]) readFile(event.target.files[0]); });
  document.addEventListener("dragover", (event) => event.preventDefault());
  document.addEventListener("drop", (event) => { event.preventDefault(); if (event.dataTransfer.files[0]) readFile(event.dataTransfer.files[0]); });

  window.vergeTrace = { load, select: (k) => select(k), get shown() { return shown.length; }, get model() { return model; } };
  const embedded = $("trace-data").textContent;
  if (embedded.trim() && embedded.indexOf("__VERGE_" + "TRACE_DATA__") < 0) load(embedded);
})();
</script>
</body>
</html>
"""#
}
