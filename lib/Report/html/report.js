// LWP report page (lib/Report/html/report.js): draws the report from the
// data lwp-report embedded (lib/Report/HTMLWriter.cpp). Plain DOM and SVG;
// no library, no network. With #selftest in the URL the page sorts, filters
// and clicks itself and writes what it saw into #selftest-result (the tests
// in test/Report/HTML read it from headless Chromium's DOM).
"use strict";
(function () {
  const SVGNS = "http://www.w3.org/2000/svg";
  let DATA = null;
  const selftest = location.hash === "#selftest";

  // --- small helpers -------------------------------------------------------
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === "class") e.className = v;
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v);
    }
    for (const c of children.flat()) {
      if (c === null || c === undefined) continue;
      e.append(c instanceof Node ? c : String(c));
    }
    return e;
  }
  function svg(tag, attrs) {
    const e = document.createElementNS(SVGNS, tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    return e;
  }
  function num(v) {
    if (v === null || v === undefined) return "-";
    return String(Math.round(v));
  }
  function pct(v) {
    return v === null || v === undefined ? "-" : v.toFixed(1) + "%";
  }
  const tooltip = () => document.getElementById("tooltip");
  function showTip(ev, text) {
    const t = tooltip();
    t.textContent = text;
    t.hidden = false;
    t.style.left = Math.min(ev.clientX + 12, innerWidth - 540) + "px";
    t.style.top = ev.clientY + 14 + "px";
  }
  function hideTip() { tooltip().hidden = true; }
  function withTip(node, text) {
    node.addEventListener("mousemove", (ev) => showTip(ev, text));
    node.addEventListener("mouseleave", hideTip);
    return node;
  }

  // --- region names (as lwp-report's table writes them) ---------------------
  function opLabel(r) {
    if (!r.operator) return "";
    return r.operator_name ? `${r.operator} "${r.operator_name}"` : r.operator;
  }
  function describeOps(r) {
    let out = opLabel(r);
    for (const op of r.operators || []) {
      if (op === out) continue;
      out += (out ? " + " : "") + op;
    }
    return out;
  }
  function regionName(r) {
    let n;
    if (r.kind === "function") n = r.function;
    else if (r.kind === "operator") n = opLabel(r);
    else {
      const ops = describeOps(r);
      n = "loop" + (ops ? ` (${ops})` : "");
    }
    return r.image ? `${n} [${r.image}]` : n;
  }
  function qualifiedName(r) {
    return r.kind === "function" ? regionName(r) : r.function + ":" + regionName(r);
  }
  function srcLoc(r) {
    return r.file ? `${r.file}:${r.line}:${r.column}` : "-";
  }
  function kindColor(kind) {
    return kind === "function" ? "var(--fn)" : kind === "operator" ? "var(--op)"
      : kind === "loop" ? "var(--loop)" : "var(--other)";
  }

  // --- data ----------------------------------------------------------------
  async function loadData() {
    const node = document.getElementById("lwp-data");
    const b64 = node.textContent.trim();
    const bin = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    let text;
    if (node.dataset.encoding === "zlib+base64") {
      const stream = new Blob([bin]).stream()
        .pipeThrough(new DecompressionStream("deflate"));
      text = await new Response(stream).text();
    } else {
      text = new TextDecoder().decode(bin);
    }
    return JSON.parse(text);
  }

  // Rows of the region table, one per region, from the mode's JSON.
  function regionRows() {
    if (DATA.mode === "runs") {
      return DATA.runs.regions.map((r) => Object.assign({}, r, {
        countText: r.count.equal ? String(r.count.min) : `${r.count.min}..${r.count.max}#`,
        countValue: r.count.max,
        cyclesValue: r.cycles_unknown ? null : r.cycles.mean,
        selfValue: r.cycles_unknown ? null : r.self.mean,
        shareValue: r.implausible || r.cycles_unknown ? null : r.share.mean,
      }));
    }
    const rows = DATA.report.regions.map((r) => Object.assign({}, r, {
      countText: String(r.count), countValue: r.count,
      cyclesValue: r.cycles, selfValue: r.self, shareValue: r.share,
    }));
    if (DATA.mode === "diff") {
      const b = new Map(DATA.report_b.regions.map((r) => [r.id, r]));
      const seen = new Set(rows.map((r) => r.id));
      for (const r of DATA.report_b.regions)
        if (!seen.has(r.id))
          rows.push(Object.assign({}, r, { count: 0, cycles: 0, self: 0, share: 0,
            countText: "0", countValue: 0, cyclesValue: 0, selfValue: 0, shareValue: 0 }));
      for (const r of rows) {
        const rb = b.get(r.id);
        r.b = rb || null;
        r.countB = rb ? rb.count : 0;
        r.cyclesB = rb ? rb.cycles : 0;
        r.ratio = r.cyclesValue > 0 && r.cyclesB !== null ? r.cyclesB / r.cyclesValue : null;
      }
    }
    return rows;
  }

  // --- header facts --------------------------------------------------------
  function headerLine(lines, prefix) {
    const l = (lines || []).find((x) => x.startsWith(prefix));
    return l ? l.slice(prefix.length) : "-";
  }
  function factsTable(lines, dump, extra) {
    const hz = DATA.counter_hz;
    const freq = hz ? (hz / 1e9).toFixed(3) + " GHz" : "frequency unknown";
    const facts = [
      ["target", DATA.target],
      ["counter", `${DATA.counter} (${freq})`],
      ["threads", dump.threads !== undefined ? dump.threads : DATA.threads.length],
      ["cap", `${dump.cap} records per region`],
      ["dropped", dump.dropped !== undefined ? `${dump.dropped} records` : "-"],
      ["correction", headerLine(lines, "overhead correction: ")],
      ["exactness", headerLine(lines, "cycles: ")],
      [DATA.counter === "packets" ? "top-level packets" : "top-level cycles", typeof dump.top_level_cycles === "number"
        ? num(dump.top_level_cycles) : num(dump.top_level_cycles.mean) + " (mean)"],
    ].concat(extra || []);
    const t = el("table", { class: "facts", id: "facts" });
    for (const [k, v] of facts)
      t.append(el("tr", { "data-fact": k }, el("th", {}, k), el("td", {}, String(v))));
    return t;
  }
  function renderHeader(main) {
    const s = el("section", { id: "header" }, el("h2", {}, "Run"));
    if (DATA.mode === "diff") {
      s.append(el("div", { class: "two" },
        el("div", {}, el("h3", {}, "A: " + DATA.report.dump.path),
          factsTable(DATA.header, DATA.report.dump), el("pre", {}, DATA.header.join("\n"))),
        el("div", {}, el("h3", {}, "B: " + DATA.report_b.dump.path),
          factsTable(DATA.header_b, DATA.report_b.dump), el("pre", {}, DATA.header_b.join("\n")))));
    } else if (DATA.mode === "runs") {
      const d = DATA.runs.dump;
      const runs = DATA.runs.runs.map((r, i) =>
        [`run ${i + 1}`, `${r.path}: ${num(r.top_level_cycles)} top-level cycles, ${r.dropped} records dropped`]);
      s.append(factsTable(DATA.header, d, runs), el("pre", {}, DATA.header.join("\n")));
    } else {
      s.append(factsTable(DATA.header, DATA.report.dump), el("pre", {}, DATA.header.join("\n")));
    }
    main.append(s);
  }

  // --- region table --------------------------------------------------------
  function columns() {
    const cols = [
      { key: "name", title: "region", sort: (r) => r.sortName },
      { key: "id", title: "ID", num: true, sort: (r) => r.id, text: (r) => r.id },
      { key: "kind", title: "kind", sort: (r) => r.kind, text: (r) => r.kind },
      { key: "depth", title: "depth", num: true, sort: (r) => r.depth ?? -1, text: (r) => r.depth ?? "-" },
    ];
    if (DATA.mode === "diff") {
      cols.push(
        { key: "count", title: "count A", num: true, sort: (r) => r.countValue, text: (r) => r.countText },
        { key: "countB", title: "count B", num: true, sort: (r) => r.countB, text: (r) => r.countB },
        { key: "cycles", title: "cycles A", num: true, sort: (r) => r.cyclesValue ?? -1, text: (r) => num(r.cyclesValue) },
        { key: "cyclesB", title: "cycles B", num: true, sort: (r) => r.cyclesB ?? -1, text: (r) => num(r.cyclesB) },
        { key: "ratio", title: "B/A", num: true, sort: (r) => r.ratio ?? -1, text: (r) => r.ratio === null ? "-" : r.ratio.toFixed(3) },
        { key: "bars", title: "A | B", node: diffBars });
    } else if (DATA.mode === "runs") {
      cols.push(
        { key: "count", title: "count", num: true, sort: (r) => r.countValue, text: (r) => r.countText },
        { key: "cycles", title: "cycles (mean)", num: true, sort: (r) => r.cyclesValue ?? -1, text: (r) => num(r.cyclesValue) },
        { key: "cmin", title: "min", num: true, sort: (r) => r.cycles.min, text: (r) => num(r.cycles.min) },
        { key: "cmax", title: "max", num: true, sort: (r) => r.cycles.max, text: (r) => num(r.cycles.max) },
        { key: "sd", title: "sd", num: true, sort: (r) => relSd(r.cycles), text: (r) => pct(relSd(r.cycles)) },
        { key: "self", title: "self (mean)", num: true, sort: (r) => r.selfValue ?? -1, text: (r) => num(r.selfValue) },
        { key: "share", title: "share", num: true, sort: (r) => r.shareValue ?? -1, text: (r) => pct(r.shareValue) },
        { key: "spread", title: "runs", node: spreadStrip });
    } else {
      const mark = (r) => (r.implausible ? "?" : r.extrapolated ? "*" : r.unwound ? "!" : "");
      const clamp = (r) => (r.instances_clamped ? "~" : "");
      cols.push(
        { key: "count", title: "count", num: true, sort: (r) => r.countValue, text: (r) => r.countText },
        { key: "samples", title: "samples", num: true, sort: (r) => r.samples, text: (r) => r.samples },
        { key: "cycles", title: "cycles", num: true, sort: (r) => r.cyclesValue ?? -1, text: (r) => num(r.cyclesValue) + (r.cyclesValue === null ? "" : mark(r)) },
        { key: "self", title: "self", num: true, sort: (r) => r.selfValue ?? -1, text: (r) => num(r.selfValue) + (r.selfValue === null ? "" : mark(r)) },
        { key: "share", title: "share", num: true, sort: (r) => r.shareValue ?? -1, text: (r) => pct(r.shareValue) },
        // ~: per-instance figures lowered to the region's cycles (not exact).
        { key: "min", title: "min", num: true, sort: (r) => r.min, text: (r) => r.min + clamp(r) },
        { key: "median", title: "median", num: true, sort: (r) => r.median, text: (r) => r.median + clamp(r) },
        { key: "p90", title: "p90", num: true, sort: (r) => r.p90, text: (r) => r.p90 + clamp(r) },
        { key: "max", title: "max", num: true, sort: (r) => r.max, text: (r) => r.max + clamp(r) });
    }
    // The source cell links to the line in the source view.
    cols.push({ key: "source", title: "source", sort: (r) => srcLoc(r),
      node: (r) => r.file && DATA.sources && r.file in DATA.sources
        ? el("a", { href: "#" + sourceAnchor(r.file, r.line) }, srcLoc(r)) : srcLoc(r) });
    return cols;
  }
  // The id of a source line's row in the source view.
  function sourceAnchor(file, line) {
    return `src-${Object.keys(DATA.sources).indexOf(file)}-${line}`;
  }
  function relSd(s) { return s.mean > 0 ? (100 * s.stddev) / s.mean : null; }
  function spreadStrip(r) {
    const w = 120, h = 14, vals = r.cycles.runs;
    const s = svg("svg", { width: w, height: h, class: "spread" });
    s.append(svg("line", { x1: 4, x2: w - 4, y1: h / 2, y2: h / 2, stroke: "#ccc" }));
    const lo = r.cycles.min, hi = r.cycles.max;
    vals.forEach((v, i) => {
      const x = hi > lo ? 4 + ((v - lo) / (hi - lo)) * (w - 8) : w / 2;
      const c = svg("circle", { cx: x, cy: h / 2, r: 3, fill: "var(--fn)", "fill-opacity": 0.6 });
      const t = svg("title", {});
      t.textContent = `run ${i + 1}: ${num(v)} cycles`;
      c.append(t);
      s.append(c);
    });
    return s;
  }
  function diffBars(r) {
    const w = 120, h = 14, a = r.cyclesValue || 0, b = r.cyclesB || 0;
    const m = Math.max(a, b, 1);
    const s = svg("svg", { width: w, height: h, class: "diffbars" });
    s.append(svg("rect", { x: 0, y: 1, height: 5, width: (a / m) * w, fill: "var(--fn)" }));
    s.append(svg("rect", { x: 0, y: 8, height: 5, width: (b / m) * w, fill: "var(--op)" }));
    return s;
  }

  const table = { rows: [], byId: new Map(), children: new Map(), roots: [],
                  sortKey: "cycles", asc: false, flat: false, filter: "",
                  collapsed: new Set(), cols: [] };

  function buildTree() {
    const t = table;
    t.byId = new Map(t.rows.map((r) => [r.id, r]));
    t.children = new Map();
    t.roots = [];
    for (const r of t.rows) {
      // A parent that did not run, or a cycle of parents, makes a root.
      let p = r.parent, steps = 0;
      while (p !== null && p !== undefined && !t.byId.has(p) && steps++ < 64) p = null;
      if (p !== null && p !== undefined && p !== r.id) {
        if (!t.children.has(p)) t.children.set(p, []);
        t.children.get(p).push(r);
        r.treeParent = p;
      } else {
        t.roots.push(r);
        r.treeParent = null;
      }
      r.sortName = qualifiedName(r);
    }
    if (t.rows.length > 400)
      for (const r of t.rows) if (r.kind === "function" && t.children.has(r.id)) t.collapsed.add(r.id);
  }
  function compareRows(a, b) {
    const c = table.cols.find((x) => x.key === table.sortKey);
    const va = c.sort(a), vb = c.sort(b);
    let d = typeof va === "string" ? va.localeCompare(vb) : va - vb;
    if (!table.asc) d = -d;
    return d || a.id - b.id;
  }
  function matches(r, f) {
    return (qualifiedName(r) + " " + (r.operator || "") + " " + srcLoc(r) + " #" + r.id)
      .toLowerCase().includes(f);
  }
  // The rows shown, in order, with their indentation.
  function visibleRows() {
    const t = table, f = t.filter.toLowerCase();
    const out = [];
    if (t.flat) {
      for (const r of [...t.rows].sort(compareRows))
        if (!f || matches(r, f)) out.push({ r, indent: 0, match: !!f });
      return out;
    }
    // Tree: with a filter, the matches and their ancestors (unfolded).
    let keep = null;
    if (f) {
      keep = new Set();
      for (const r of t.rows) {
        if (!matches(r, f)) continue;
        for (let x = r, n = 0; x && n < 64; x = t.byId.get(x.treeParent), n++) keep.add(x.id);
      }
    }
    const walk = (list, indent) => {
      for (const r of [...list].sort(compareRows)) {
        if (keep && !keep.has(r.id)) continue;
        out.push({ r, indent, match: !!f && matches(r, f) });
        const kids = t.children.get(r.id);
        if (kids && (keep || !t.collapsed.has(r.id)) && indent < 64) walk(kids, indent + 1);
      }
    };
    walk(t.roots, 0);
    return out;
  }
  function renderRows() {
    const t = table;
    const body = document.getElementById("region-body");
    body.textContent = "";
    const shown = visibleRows();
    for (const { r, indent, match } of shown) {
      const tr = el("tr", { "data-id": r.id, class: match ? "match" : null });
      const kids = !t.flat && t.children.get(r.id);
      const fold = kids
        ? el("button", { class: "fold", title: "fold / unfold",
            onclick: () => { t.collapsed.has(r.id) ? t.collapsed.delete(r.id) : t.collapsed.add(r.id); renderRows(); } },
          t.collapsed.has(r.id) && !t.filter ? "\u25B8" : "\u25BE")
        : el("span", { style: "display:inline-block;width:16px" });
      const nameCell = el("td", { class: "name", style: `padding-left:${8 + indent * 16}px` }, fold,
        el("span", { class: "kind-" + r.kind }, t.flat ? qualifiedName(r) : regionName(r)));
      tr.append(nameCell);
      for (const c of t.cols.slice(1)) {
        if (c.node) tr.append(el("td", {}, c.node(r)));
        else tr.append(el("td", { class: c.num ? "num" : null }, String(c.text(r))));
      }
      body.append(tr);
    }
    document.getElementById("region-count").textContent =
      `${shown.length} of ${t.rows.length} regions shown`;
    for (const th of document.querySelectorAll("#regions th[data-key]")) {
      th.classList.toggle("sorted", th.dataset.key === t.sortKey);
      th.classList.toggle("asc", th.dataset.key === t.sortKey && t.asc);
    }
  }
  function renderTable(main) {
    table.rows = regionRows();
    table.cols = columns();
    buildTree();
    const head = el("tr", {});
    for (const c of table.cols) {
      const th = el("th", { class: c.num ? "num" : null, "data-key": c.sort ? c.key : null }, c.title);
      if (c.sort)
        th.addEventListener("click", () => {
          if (table.sortKey === c.key) table.asc = !table.asc;
          else { table.sortKey = c.key; table.asc = !c.num || c.key === "id"; }
          renderRows();
        });
      head.append(th);
    }
    const controls = el("div", { class: "controls" },
      el("input", { type: "search", id: "filter", placeholder: "filter: function, operator, loop, file, #id",
        oninput: (e) => { table.filter = e.target.value; renderRows(); } }),
      el("label", {}, el("input", { type: "checkbox", id: "flat",
        onchange: (e) => { table.flat = e.target.checked; renderRows(); } }), " flat (no tree)"),
      el("button", { id: "expand-all", onclick: () => { table.collapsed.clear(); renderRows(); } }, "unfold all"),
      el("button", { id: "collapse-all", onclick: () => {
        for (const r of table.rows) if (table.children.has(r.id)) table.collapsed.add(r.id);
        renderRows(); } }, "fold all"),
      el("span", { id: "region-count", class: "muted" }));
    const legend = DATA.mode === "single"
      ? el("p", { class: "muted" }, "* extrapolated (count > samples), ? implausible, ! unwound instances" +
          (table.rows.some((r) => r.instances_clamped)
            ? ", ~ not exact: recorded instances read above the region's cycles and were lowered to them" : "") +
          "; click a column to sort, \u25BE to fold.")
      : DATA.mode === "runs"
        ? el("p", { class: "muted" }, "Figures are the mean over the runs; min, max and sd (sample standard deviation, % of the mean) their spread; # counts differ between runs. Each dot is one run.")
        : el("p", { class: "muted" }, "A and B side by side; B/A the ratio of inclusive cycles.");
    main.append(el("section", { id: "regions-section" },
      el("h2", {}, DATA.mode === "runs" ? "Regions across runs" : DATA.mode === "diff" ? "Regions, A vs B" : "Regions"),
      controls, legend,
      el("div", { class: "regions-wrap" },
        el("table", { id: "regions" }, el("thead", {}, head), el("tbody", { id: "region-body" })))));
    renderRows();
  }

  // --- icicle chart --------------------------------------------------------
  const icicle = { root: null, zoom: null, width: 0 };
  // Every region that ran, by ID (the table may hold fewer: --function).
  function mapById() {
    const m = new Map((DATA.map || []).map((r) => [r.id, r]));
    for (const [id, r] of table.byId) m.set(id, r);
    return m;
  }
  function icicleTree() {
    const byId = mapById();
    const root = { name: "all", id: null, kind: "root", self: 0, inclusive: 0, children: new Map(), parent: null, depth: 0 };
    const stacks = DATA.stacks || [];
    if (stacks.length) {
      for (const [path, self, folded] of stacks) {
        let n = root;
        for (const id of path) {
          if (!n.children.has(id)) {
            const r = byId.get(id);
            n.children.set(id, { name: r ? regionName(r) : "#" + id, full: r ? qualifiedName(r) : "#" + id,
              id, kind: r ? r.kind : "other", self: 0, inclusive: 0, children: new Map(), parent: n, depth: n.depth + 1 });
          }
          n = n.children.get(id);
        }
        n.self += self;
        if (folded && !n.folded) {
          // Paths past the runtime's node budget were folded into this one.
          n.folded = true;
          n.name += " [folded]";
          n.full += " [folded: deeper paths past the node budget are in its self]";
        }
      }
      const which = DATA.mode === "runs" ? ", first run" : DATA.mode === "diff" ? ", run A" : "";
      icicle.source = DATA.stacks_source === "contexts"
        ? "calling contexts (every execution, counted by the runtime" + which + ")"
        : "recorded instances (call stacks as the runtime saw them" + which + ")";
    } else {
      // No instances: the map's nest with the exact figures.
      const add = (n, r) => {
        const c = { name: regionName(r), full: qualifiedName(r), id: r.id, kind: r.kind,
          self: r.selfValue || 0, inclusive: 0, children: new Map(), parent: n, depth: n.depth + 1 };
        n.children.set(r.id, c);
        for (const k of table.children.get(r.id) || []) if (c.depth < 64) add(c, k);
      };
      for (const r of table.roots) add(root, r);
      icicle.source = "the map's nest with each region's self cycles (no instance was recorded)";
    }
    const total = (n) => { n.inclusive = n.self; for (const c of n.children.values()) n.inclusive += total(c); return n.inclusive; };
    total(root);
    return root;
  }
  function renderIcicle() {
    const box = document.getElementById("icicle");
    box.textContent = "";
    const W = Math.max(600, box.clientWidth || 1100), RH = 20;
    icicle.width = W;
    const zoom = icicle.zoom;
    // The zoomed node's ancestors, full width, above it.
    const chain = [];
    for (let n = zoom; n; n = n.parent) chain.unshift(n);
    let maxDepth = 0;
    const measure = (n, d) => { maxDepth = Math.max(maxDepth, d); for (const c of n.children.values()) measure(c, d + 1); };
    measure(zoom, chain.length - 1);
    const s = svg("svg", { width: W, height: (maxDepth + 1) * RH + 2, id: "icicle-svg" });
    const unit = DATA.counter === "packets" ? "packets" : "cycles";
    const draw = (n, x, w, d, ancestor) => {
      if (w < 0.5) return;
      const g = svg("g", { class: "node", "data-id": n.id ?? "root", "data-name": n.name,
        "data-inclusive": n.inclusive, "data-self": n.self, "data-depth": d });
      const fill = n.kind === "root" ? "#bbb" : kindColor(n.kind);
      g.append(svg("rect", { class: "body", x, y: d * RH, width: w, height: RH - 1, fill, "fill-opacity": ancestor ? 0.35 : 0.85 }));
      // Self cycles: the darker band along the bottom.
      if (n.inclusive > 0 && n.self > 0)
        g.append(svg("rect", { class: "self", x, y: d * RH + RH - 5, width: w * (n.self / n.inclusive), height: 4, fill: "#000", "fill-opacity": 0.35 }));
      if (w > 30) {
        const t = svg("text", { x: x + 3, y: d * RH + 13 });
        const maxChars = Math.floor((w - 6) / 6.2);
        const label = n.name;
        t.textContent = label.length > maxChars ? label.slice(0, Math.max(1, maxChars - 1)) + "\u2026" : label;
        g.append(t);
      }
      const total = icicle.root.inclusive;
      withTip(g, `${n.full || n.name}\ninclusive ${num(n.inclusive)} ${unit} (${pct(total ? (100 * n.inclusive) / total : 0)} of all)\nself ${num(n.self)} ${unit}` +
        (n.id !== null && n.id !== undefined ? `\nregion ${n.id}; click to zoom` : "\nclick to zoom out"));
      g.addEventListener("click", () => { icicle.zoom = n; renderIcicle(); });
      s.append(g);
      if (ancestor) return;
      let cx = x;
      const kids = [...n.children.values()].sort((a, b) => b.inclusive - a.inclusive);
      for (const c of kids) {
        const cw = n.inclusive > 0 ? (w * c.inclusive) / n.inclusive : 0;
        draw(c, cx, cw, d + 1, false);
        cx += cw;
      }
    };
    chain.forEach((n, i) => { if (n !== zoom) draw(n, 0, W, i, true); });
    draw(zoom, 0, W, chain.length - 1, false);
    box.append(s);
    document.getElementById("icicle-zoom").textContent =
      zoom === icicle.root ? "whole profile" : "zoomed on " + (zoom.full || zoom.name);
  }
  function renderIcicleSection(main) {
    icicle.root = icicleTree();
    icicle.zoom = icicle.root;
    main.append(el("section", { id: "icicle-section" },
      el("h2", {}, "Icicle chart"),
      el("p", { class: "muted" }, "Width: inclusive cycles; the dark band: self cycles. From ", el("span", { id: "icicle-source" }, icicle.source),
        ". Click a node to zoom, an ancestor above it to zoom out. Colours: ",
        el("span", { class: "kind-function" }, "function"), ", ", el("span", { class: "kind-operator" }, "operator"), ", ",
        el("span", { class: "kind-loop" }, "loop"), "."),
      el("div", { class: "controls" },
        el("button", { id: "icicle-reset", onclick: () => { icicle.zoom = icicle.root; renderIcicle(); } }, "reset zoom"),
        el("span", { id: "icicle-zoom", class: "muted" })),
      el("div", { class: "chart", id: "icicle" })));
    renderIcicle();
  }

  // --- calling contexts ----------------------------------------------------
  // The dump's calling-context trees, merged over the threads by path
  // (DATA.stacks from the contexts: [ids, self, folded, count, cycles]):
  // every path with its count, inclusive and self cycles, foldable.
  const contexts = { root: null, expanded: new Set(), total: 0 };
  function contextTree() {
    const root = { key: "", children: new Map(), depth: 0 };
    for (const [path, self, folded, count, cycles] of DATA.stacks) {
      let n = root;
      for (const id of path) {
        if (!n.children.has(id))
          n.children.set(id, { id, key: n.key + "/" + id, children: new Map(), depth: n.depth + 1,
            self: 0, count: 0, cycles: 0, folded: false });
        n = n.children.get(id);
      }
      Object.assign(n, { self, count, cycles, folded: !!folded });
    }
    return root;
  }
  function renderContexts() {
    const body = document.getElementById("context-body");
    body.textContent = "";
    const byId = mapById(), c = contexts;
    const walk = (n) => {
      for (const k of [...n.children.values()].sort((a, b) => b.cycles - a.cycles || a.id - b.id)) {
        const r = byId.get(k.id), open = c.expanded.has(k.key);
        const fold = k.children.size
          ? el("button", { class: "fold", title: "fold / unfold",
              onclick: () => { open ? c.expanded.delete(k.key) : c.expanded.add(k.key); renderContexts(); } },
            open ? "\u25BE" : "\u25B8")
          : el("span", { style: "display:inline-block;width:16px" });
        const name = (r ? regionName(r) : "#" + k.id) + (k.folded ? " [folded]" : "");
        body.append(el("tr", { "data-path": k.key.slice(1), "data-count": k.count, "data-cycles": k.cycles,
            "data-self": k.self, "data-folded": k.folded ? "yes" : null },
          el("td", { class: "name", style: `padding-left:${8 + (k.depth - 1) * 16}px`,
            title: k.folded ? "paths past the runtime's node budget were folded into this one: their time is in its self" : null },
            fold, el("span", { class: "path kind-" + (r ? r.kind : "other") }, name)),
          el("td", { class: "num" }, k.count), el("td", { class: "num" }, k.cycles),
          el("td", { class: "num" }, k.self), el("td", { class: "num" }, pct(c.total ? (100 * k.cycles) / c.total : null))));
        if (open) walk(k);
      }
    };
    walk(c.root);
  }
  function renderContextsSection(main) {
    if (DATA.stacks_source !== "contexts" || !(DATA.stacks || []).length) return;
    const c = contexts;
    c.root = contextTree();
    c.total = 0;
    for (const k of c.root.children.values()) c.total += k.cycles;
    // Small trees open whole; larger ones two levels deep.
    const all = DATA.stacks.length <= 200;
    const open = (n) => { for (const k of n.children.values()) if (k.children.size && (all || k.depth < 2)) { c.expanded.add(k.key); open(k); } };
    open(c.root);
    const which = DATA.mode === "runs" ? " (first run)" : DATA.mode === "diff" ? " (run A)" : "";
    const unit = DATA.counter === "packets" ? "packets" : "cycles";
    main.append(el("section", { id: "contexts-section" },
      el("h2", {}, "Calling contexts"),
      el("p", { class: "muted" }, "Every path of regions the program ran" + which + ", from the runtime's calling-context trees merged over the threads: " +
        `count, inclusive and self ${unit} of each path (every execution, not only the recorded ones); the self ${unit} add up to the top-level ${unit}, ` +
        num(c.total) + ". [folded]: paths past the runtime's node budget were folded into this one."),
      el("div", { class: "controls" },
        el("button", { id: "contexts-expand", onclick: () => {
          const add = (n) => { for (const k of n.children.values()) if (k.children.size) { c.expanded.add(k.key); add(k); } };
          add(c.root); renderContexts(); } }, "unfold all"),
        el("button", { id: "contexts-collapse", onclick: () => { c.expanded.clear(); renderContexts(); } }, "fold all")),
      el("div", { class: "regions-wrap" },
        el("table", { id: "contexts" },
          el("thead", {}, el("tr", {}, el("th", {}, "path"), el("th", { class: "num" }, "count"),
            el("th", { class: "num" }, unit), el("th", { class: "num" }, "self"), el("th", { class: "num" }, "share"))),
          el("tbody", { id: "context-body" })))));
    renderContexts();
  }

  // --- timeline ------------------------------------------------------------
  const timeline = { inst: [], t0: 0, t1: 1, end: 1 };
  function renderTimelineSection(main) {
    const tl = DATA.timeline;
    if (!tl) return;
    const a = tl.instances, inst = [];
    // Rows of tl.fields values (6 before the clamped flag).
    const n = tl.fields || 6;
    for (let i = 0; i + n - 1 < a.length; i += n)
      inst.push({ thread: a[i], id: a[i + 1], start: a[i + 2], raw: a[i + 3], incl: a[i + 4], depth: a[i + 5],
        clamped: n > 6 && a[i + 6] === 1 });
    timeline.inst = inst;
    timeline.byId = mapById();
    timeline.end = Math.max(1, ...inst.map((x) => x.start + x.raw));
    timeline.t0 = 0;
    timeline.t1 = timeline.end;
    if (!inst.length) {
      main.append(el("section", { id: "timeline-section" }, el("h2", {}, "Timeline"),
        el("p", { class: "muted" }, "No instance was recorded.")));
      return;
    }
    const note = tl.kept < tl.recorded
      ? `The first ${tl.kept} of ${tl.recorded} recorded instances.`
      : `All ${tl.recorded} recorded instances (the runtime keeps the first ${DATA.report ? DATA.report.dump.cap : DATA.runs.dump.cap} per region).`;
    main.append(el("section", { id: "timeline-section" },
      el("h2", {}, "Timeline"),
      el("p", { class: "muted" }, "Per thread, each recorded instance at its start, as long as it ran (raw cycles, as in the Chrome trace). ", note,
        " Click an instance to zoom to it; wheel to zoom around the pointer."),
      el("div", { class: "controls" },
        el("button", { id: "tl-in", onclick: () => zoomTimeline(0.5) }, "zoom in"),
        el("button", { id: "tl-out", onclick: () => zoomTimeline(2) }, "zoom out"),
        el("button", { id: "tl-reset", onclick: () => { timeline.t0 = 0; timeline.t1 = timeline.end; renderTimeline(); } }, "reset"),
        el("span", { id: "tl-range", class: "muted" })),
      el("div", { class: "chart", id: "timeline" })));
    renderTimeline();
  }
  function timeText(ticks) {
    const hz = DATA.counter_hz;
    if (hz) {
      const us = (ticks * 1e6) / hz;
      return us >= 1000 ? (us / 1000).toFixed(3) + " ms" : us.toFixed(3) + " \u00B5s";
    }
    return num(ticks) + " " + DATA.counter;
  }
  function zoomTimeline(f, center) {
    const t = timeline, c = center ?? (t.t0 + t.t1) / 2;
    let w = (t.t1 - t.t0) * f;
    w = Math.min(Math.max(w, 10), t.end);
    t.t0 = Math.max(0, c - w / 2);
    t.t1 = Math.min(t.end, t.t0 + w);
    t.t0 = Math.max(0, t.t1 - w);
    renderTimeline();
  }
  function renderTimeline() {
    const box = document.getElementById("timeline");
    box.textContent = "";
    const t = timeline, W = Math.max(600, box.clientWidth || 1100), RH = 14, AX = 20, LABEL = 110;
    const threads = [...new Set(t.inst.map((x) => x.thread))].sort((a, b) => a - b);
    const depthOf = new Map(threads.map((th) => [th, 0]));
    for (const x of t.inst) depthOf.set(x.thread, Math.max(depthOf.get(x.thread), x.depth));
    let y = AX;
    const laneY = new Map();
    for (const th of threads) { laneY.set(th, y); y += (depthOf.get(th) + 1) * RH + 10; }
    const s = svg("svg", { width: W, height: y, id: "timeline-svg" });
    const span = t.t1 - t.t0, scale = (W - LABEL) / span;
    for (let i = 0; i <= 5; i++) {
      const x = LABEL + ((W - LABEL - 40) * i) / 5;
      s.append(svg("line", { x1: x, x2: x, y1: AX - 4, y2: y, stroke: "#eee" }));
      const tx = svg("text", { x: x + 2, y: 12 });
      tx.textContent = timeText(t.t0 + (x - LABEL) / scale);
      s.append(tx);
    }
    for (const th of threads) {
      const tx = svg("text", { x: 2, y: laneY.get(th) + 11 });
      tx.textContent = "thread " + (DATA.threads[th] ?? th);
      s.append(tx);
    }
    let drawn = 0;
    for (const x of t.inst) {
      if (x.start + x.raw < t.t0 || x.start > t.t1) continue;
      const x0 = LABEL + Math.max(0, (x.start - t.t0) * scale);
      const x1 = LABEL + Math.min(W - LABEL, (x.start + x.raw - t.t0) * scale);
      if (x1 - x0 < 0.3 || drawn > 20000) continue;
      drawn++;
      const r = t.byId.get(x.id);
      const rect = svg("rect", { class: "inst", x: x0, y: laneY.get(x.thread) + x.depth * RH, width: x1 - x0, height: RH - 1,
        fill: kindColor(r ? r.kind : "other"), "data-id": x.id });
      withTip(rect, `${r ? qualifiedName(r) : "#" + x.id} (region ${x.id})\nstart ${timeText(x.start)}, ${num(x.raw)} raw ${DATA.counter}, ${num(x.incl)} corrected` +
        (x.clamped ? " (~ lowered to the region's cycles: not exact)" : ""));
      rect.addEventListener("click", () => {
        const pad = Math.max(x.raw * 0.05, 1);
        t.t0 = Math.max(0, x.start - pad);
        t.t1 = Math.min(t.end, x.start + x.raw + pad);
        renderTimeline();
      });
      s.append(rect);
      if (x1 - x0 > 40) {
        const tx = svg("text", { x: x0 + 2, y: laneY.get(x.thread) + x.depth * RH + 10 });
        const label = r ? regionName(r) : "#" + x.id, maxChars = Math.floor((x1 - x0 - 4) / 6.2);
        tx.textContent = label.length > maxChars ? label.slice(0, Math.max(1, maxChars - 1)) + "\u2026" : label;
        s.append(tx);
      }
    }
    s.addEventListener("wheel", (ev) => {
      ev.preventDefault();
      const bb = s.getBoundingClientRect();
      zoomTimeline(ev.deltaY < 0 ? 0.7 : 1.4, t.t0 + (ev.clientX - bb.left - LABEL) / scale);
    }, { passive: false });
    box.append(s);
    document.getElementById("tl-range").textContent =
      `${timeText(t.t0)} to ${timeText(t.t1)} (${drawn} instances drawn)`;
    box.dataset.t0 = t.t0;
    box.dataset.t1 = t.t1;
  }

  // --- operator summary ----------------------------------------------------
  function renderSummary(main) {
    const s = DATA.summary;
    if (!s || !s.operators.length) return;
    const maxShare = Math.max(...s.operators.map((o) => o.share), 1e-9);
    const t = el("table", { id: "summary" }, el("thead", {}, el("tr", {},
      ["operator", "regions", "instances", "cycles", "self", "share", "mean", ""].map((h, i) =>
        el("th", { class: i && i < 7 ? "num" : null }, h)))));
    const body = el("tbody", {});
    for (const o of s.operators) {
      const bar = svg("svg", { width: 160, height: 12 });
      bar.append(svg("rect", { x: 0, y: 1, height: 10, width: (160 * o.share) / maxShare, fill: "var(--op)" }));
      body.append(el("tr", { "data-operator": o.operator }, el("td", { class: "name" }, o.operator),
        el("td", { class: "num" }, o.regions), el("td", { class: "num" }, o.instances),
        el("td", { class: "num" }, num(o.cycles)), el("td", { class: "num" }, num(o.self)),
        el("td", { class: "num" }, pct(o.share)), el("td", { class: "num" }, num(o.mean)), el("td", {}, bar)));
    }
    t.append(body);
    const top = s.top_level_cycles;
    main.append(el("section", { id: "summary-section" },
      el("h2", {}, "Operators" + (DATA.mode === "runs" ? " (means over the runs)" : DATA.mode === "diff" ? " (run A)" : "")),
      el("p", { class: "muted" }, "One row per operator type (lwp-report --summary): its regions, executions, inclusive cycles, self cycles (without nested operators), share of the top-level cycles and mean cycles per instance."),
      t,
      el("p", { id: "outside" }, `outside operators: ${num(s.outside_cycles)} cycles (${pct(top > 0 ? (100 * s.outside_cycles) / top : 0)})`)));
  }

  // --- sources -------------------------------------------------------------
  function renderSources(main) {
    const files = Object.keys(DATA.sources || {});
    if (!files.length) return;
    const sec = el("section", { id: "sources-section" }, el("h2", {}, "Sources"),
      el("p", { class: "muted" }, "Each region at its source line with its inclusive cycles; lines around them for context. Files that were not readable when the report was written show their locations only (lwp-report --source-dir DIR finds relative paths)."));
    const byFile = new Map();
    for (const r of table.rows) {
      if (!r.file) continue;
      if (!byFile.has(r.file)) byFile.set(r.file, new Map());
      const m = byFile.get(r.file);
      if (!m.has(r.line)) m.set(r.line, []);
      m.get(r.line).push(r);
    }
    for (const f of files) {
      const lines = byFile.get(f) || new Map();
      const text = DATA.sources[f];
      const div = el("div", { class: "source-file", "data-file": f, "data-embedded": text !== null ? "yes" : "no" },
        el("h3", {}, f, text === null ? el("span", { class: "muted" }, " (not readable here: locations only)") : null));
      const t = el("table", { class: "source" });
      const annot = (rs) => rs.map((r) => `${regionName(r)} #${r.id}: ${num(r.cyclesValue)}`).join("; ");
      const cyc = (rs) => rs.reduce((a, r) => Math.max(a, r.cyclesValue || 0), 0);
      if (text !== null) {
        const src = text.split("\n");
        const show = new Set();
        for (const ln of lines.keys()) for (let k = ln - 3; k <= ln + 3; k++) if (k >= 1 && k <= src.length) show.add(k);
        let last = 0;
        for (const k of [...show].sort((a, b) => a - b)) {
          if (k > last + 1) t.append(el("tr", { class: "gap" }, el("td", { class: "ln" }, "\u22EE"), el("td", {}), el("td", {})));
          const rs = lines.get(k);
          t.append(el("tr", { class: rs ? "hot" : null, "data-line": k, id: rs ? sourceAnchor(f, k) : null },
            el("td", { class: "ln" }, k),
            el("td", { class: "num cycles" }, rs ? num(cyc(rs)) : ""),
            el("td", { class: "code" }, src[k - 1], rs ? el("span", { class: "muted" }, "   \u2190 " + annot(rs)) : null)));
          last = k;
        }
      } else {
        for (const [ln, rs] of [...lines.entries()].sort((a, b) => a[0] - b[0]))
          t.append(el("tr", { class: "hot", "data-line": ln, id: sourceAnchor(f, ln) }, el("td", { class: "ln" }, `${f}:${ln}`),
            el("td", { class: "num cycles" }, num(cyc(rs))), el("td", { class: "code" }, annot(rs))));
      }
      div.append(t);
      sec.append(div);
    }
    main.append(sec);
  }

  // --- self test (#selftest) -------------------------------------------------
  function click(node) {
    node.dispatchEvent(new MouseEvent("click", { bubbles: true }));
  }
  function shownIds() {
    return [...document.querySelectorAll("#region-body tr")].map((tr) => tr.dataset.id);
  }
  function runSelftest() {
    const out = [];
    try {
      selftestSteps(out);
    } catch (e) {
      out.push("error: " + e + " " + (e.stack || ""));
    }
    document.getElementById("main").prepend(el("pre", { id: "selftest-result" }, out.map((l) => "selftest: " + l).join("\n")));
    document.body.dataset.selftest = "done";
  }
  function selftestSteps(out) {
    out.push(`regions: ${table.rows.length}; rows shown: ${shownIds().length}`);
    // Sorting: the flat table by cycles, then by ID.
    document.getElementById("flat").click();
    const before = shownIds().slice(0, 8).join(",");
    // Whether every shown row has at most the cycles of the row above it:
    // what sorting must give whatever the figures are.
    const cyclesCol = table.cols.find((x) => x.key === "cycles");
    const sortedCycles = shownIds().map((id) => cyclesCol.sort(table.byId.get(Number(id))));
    const descending = sortedCycles.every((v, i) => i === 0 || sortedCycles[i - 1] >= v);
    click(document.querySelector('#regions th[data-key="id"]'));
    const after = shownIds().slice(0, 8).join(",");
    out.push(`sort by cycles: ${before}`);
    out.push(`cycles descending: ${descending ? "yes" : "no"} (${sortedCycles.length} rows)`);
    out.push(`sort by id: ${after}`);
    out.push(`sort changed order: ${before !== after ? "yes" : "no"}`);
    document.getElementById("flat").click();
    // Folding: fold all, then unfold all.
    click(document.getElementById("collapse-all"));
    const folded = shownIds().length;
    click(document.getElementById("expand-all"));
    out.push(`fold all: ${folded} rows; unfold all: ${shownIds().length} rows`);
    // Filtering.
    const f = document.getElementById("filter");
    f.value = "loop";
    f.dispatchEvent(new Event("input"));
    out.push(`filter loop: ${document.querySelectorAll("#region-body tr.match").length} matches, ${shownIds().length} rows`);
    f.value = "";
    f.dispatchEvent(new Event("input"));
    // Icicle: zoom on the largest child of the root's largest child (or the
    // root's largest child).
    const nodes = document.querySelectorAll("#icicle-svg g.node");
    out.push(`icicle nodes: ${nodes.length}`);
    const widthOf = (g) => Number(g.querySelector("rect.body").getAttribute("width"));
    const byDepth = (d) => [...document.querySelectorAll(`#icicle-svg g.node[data-depth="${d}"]`)]
      .sort((a, b) => widthOf(b) - widthOf(a));
    const target = byDepth(2)[0] || byDepth(1)[0];
    if (target) {
      const id = target.dataset.id, w0 = widthOf(target);
      click(target);
      const z = document.querySelector(`#icicle-svg g.node[data-id="${id}"]`);
      out.push(`icicle click: ${target.dataset.name} (region ${id}) width ${w0.toFixed(1)} to ${z ? widthOf(z).toFixed(1) : "gone"} of ${icicle.width.toFixed(1)}; ${document.getElementById("icicle-zoom").textContent}`);
      click(document.getElementById("icicle-reset"));
    }
    // Timeline: click the first instance.
    const inst = document.querySelector("#timeline-svg rect.inst");
    if (inst) {
      const box = document.getElementById("timeline"), span0 = box.dataset.t1 - box.dataset.t0;
      click(inst);
      const span1 = box.dataset.t1 - box.dataset.t0;
      out.push(`timeline instances: ${timeline.inst.length}; click on region ${inst.dataset.id}: span ${num(span0)} to ${num(span1)} (${span1 < span0 ? "zoomed" : "not zoomed"})`);
    }
    // Calling contexts: the paths shown, their self cycles' sum, folding.
    if (document.getElementById("contexts-section")) {
      const rows = () => [...document.querySelectorAll("#context-body tr")];
      const shown = rows().length;
      click(document.getElementById("contexts-expand"));
      const all = rows(), sum = all.reduce((a, r) => a + Number(r.dataset.self), 0);
      click(document.getElementById("contexts-collapse"));
      const top = rows().length;
      click(document.getElementById("contexts-expand"));
      out.push(`contexts: ${all.length} paths (${shown} rows at first, ${top} after fold all), self sum ${sum} of ${contexts.total}, ${all.filter((r) => r.dataset.folded).length} folded by the runtime`);
    }
    out.push(`sources embedded: ${document.querySelectorAll('.source-file[data-embedded="yes"]').length} of ${document.querySelectorAll(".source-file").length}`);
  }

  // --- page ------------------------------------------------------------------
  async function main() {
    const status = document.getElementById("status");
    try {
      DATA = await loadData();
    } catch (e) {
      status.textContent = "Cannot read the report's data: " + e;
      status.className = "warn";
      return;
    }
    const main = document.getElementById("main");
    main.textContent = "";
    document.title = "LWP report: " + DATA.title;
    document.getElementById("title").textContent = "LWP report: " + DATA.title;
    renderHeader(main);
    // The table first (the icicle chart's names come from its rows), then
    // the chart moved above it: the nest at a glance, the figures below.
    renderTable(main);
    renderIcicleSection(main);
    main.insertBefore(document.getElementById("icicle-section"),
      document.getElementById("regions-section"));
    renderContextsSection(main);
    renderSummary(main);
    renderTimelineSection(main);
    renderSources(main);
    const nav = document.getElementById("nav");
    for (const s of main.querySelectorAll("section")) {
      const h = s.querySelector("h2");
      if (h) nav.append(el("a", { href: "#" + s.id }, h.textContent));
    }
    document.body.dataset.ready = "yes";
    if (selftest) runSelftest();
  }
  main();
})();
