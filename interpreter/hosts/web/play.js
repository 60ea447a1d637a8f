// rulelang web: the page. It talks to `rulelang web` with the protocol of `rulelang serve`
// (docs/protocol.md) over HTTP, one request per POST to /api; it holds no game logic: every
// question, option, board and log line comes from the server.
"use strict";

// ---------------------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------------------

const $ = (id) => document.getElementById(id);
const SVG_NS = "http://www.w3.org/2000/svg";

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  setAttrs(node, attrs);
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

function svg(tag, attrs, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  setAttrs(node, attrs);
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

function setAttrs(node, attrs) {
  if (!attrs) return;
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.setAttribute("class", value);
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
}

function escapeHtml(text) {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function seatName(index) {
  return index < 0 ? "chance" : "player " + (index + 1);
}

/** A value of an observation, as text: components by label, players by seat, spaces by name. */
function show(value, limit = 8) {
  if (value === null || value === undefined) return "–";
  if (Array.isArray(value)) {
    if (value.length === 0) return "none";
    const shown = value.slice(0, limit).map((v) => show(v, limit));
    return shown.join(", ") + (value.length > limit ? ` … (${value.length} in all)` : "");
  }
  if (typeof value === "object") {
    if ("player" in value && Object.keys(value).length === 1) return seatName(value.player);
    if ("space" in value) return String(value.space);
    if ("label" in value) return String(value.label);
    if ("enum" in value && "value" in value) return String(value.value).replace(/_/g, " ");
    if ("map" in value) return value.map.map(([k, v]) => `${show(k)}: ${show(v)}`).join("; ") || "none";
    if ("count" in value) return `${value.count} hidden`;
    return JSON.stringify(value);
  }
  if (typeof value === "boolean") return value ? "yes" : "no";
  return String(value);
}

function humanName(name) {
  return String(name).replace(/_/g, " ");
}

// ---------------------------------------------------------------------------------------
// The protocol over HTTP
// ---------------------------------------------------------------------------------------

class ProtocolError extends Error {
  constructor(error) {
    super(error.message || "error");
    this.code = error.code;
    this.location = error.location;
    this.hint = error.hint;
    this.diagnostics = error.diagnostics;
  }
}

const api = {
  session: null,
  opening: null,
  nextId: 1,
  inFlight: 0,
  async newSession() {
    const response = await fetch("/api/session", {method: "POST", headers: {"Content-Type": "application/json"}, body: "{}"});
    if (!response.ok) throw new Error("cannot open a session: HTTP " + response.status);
    this.session = (await response.json()).session;
  },
  /**
   * One request; resolves to its result, rejects with a ProtocolError. A ``quiet`` request
   * (made ahead of need, such as the copy for Undo) does not show the page as working.
   */
  async call(op, fields = {}, {quiet = false} = {}) {
    if (!this.session) {
      // One new session however many requests wait for it.
      this.opening = this.opening || this.newSession().finally(() => { this.opening = null; });
      await this.opening;
    }
    const body = JSON.stringify({id: this.nextId++, op, ...fields});
    const count = quiet ? 0 : 1;
    this.busy(+count);
    try {
      const response = await fetch("/api", {
        method: "POST",
        headers: {"Content-Type": "application/json", "X-Rulelang-Session": this.session},
        body,
      });
      let reply;
      try {
        reply = await response.json();
      } catch (_) {
        throw new ProtocolError({code: "HTTP" + response.status, message: `the server answered HTTP ${response.status}`});
      }
      if (response.status === 403 && reply && reply.error && reply.error.code === "P009") {
        // The server forgot this page (restarted, or too many pages): start again.
        this.session = null;
        onSessionLost();
      }
      if (!reply.ok) throw new ProtocolError(reply.error || {message: "no reply"});
      return reply.result;
    } finally {
      this.busy(-count);
    }
  },
  busy(delta) {
    this.inFlight += delta;
    document.body.dataset.busy = this.inFlight > 0 ? "1" : "0";
  },
};

function showBanner(text, kind = "error") {
  $("banner-text").textContent = text;
  $("banner").className = kind;
  $("banner").hidden = false;
}

function hideBanner() {
  $("banner").hidden = true;
}

function errorText(error) {
  if (!(error instanceof ProtocolError)) return String(error && error.message ? error.message : error);
  let text = (error.code ? error.code + ": " : "") + error.message;
  if (error.location) text += ` (at ${error.location})`;
  if (error.hint) text += ` — ${error.hint}`;
  if (error.diagnostics && error.diagnostics.length > 1) text += ` (and ${error.diagnostics.length - 1} more problems: see the editor)`;
  return text;
}

function onSessionLost() {
  showBanner("The server no longer knew this page (it restarted?): games in progress are lost. Start again.");
  play.reset();
  replay.reset();
}

// ---------------------------------------------------------------------------------------
// Tabs and the rulesets list
// ---------------------------------------------------------------------------------------

const app = {
  path: null,        // the ruleset open in the editor
  title: null,
  rulesets: [],
  tab: "editor",
};

function showTab(name) {
  app.tab = name;
  for (const button of document.querySelectorAll(".tab")) {
    const on = button.dataset.tab === name;
    button.classList.toggle("active", on);
    button.setAttribute("aria-selected", on ? "true" : "false");
  }
  for (const pane of document.querySelectorAll(".pane")) pane.hidden = pane.id !== "pane-" + name;
  if (name === "graph") graph.drawIfStale();
  if (name === "play") play.prepareSetup();
}

async function loadRulesets() {
  const list = $("ruleset-list");
  try {
    const result = await api.call("rulesets");
    app.rulesets = result.rulesets;
    list.replaceChildren();
    if (!result.rulesets.length) list.append(el("li", {class: "muted"}, "no .rules files under this folder"));
    // Grouped by folder, the folders of the games first.
    const folders = new Map();
    for (const entry of result.rulesets) {
      const cut = entry.path.lastIndexOf("/");
      const folder = cut < 0 ? "." : entry.path.slice(0, cut);
      if (!folders.has(folder)) folders.set(folder, []);
      folders.get(folder).push(entry);
    }
    const order = [...folders.keys()].sort((a, b) => (b === "games") - (a === "games") || a.localeCompare(b));
    for (const folder of order) {
      list.append(el("li", {class: "folder"}, folder + "/"));
      for (const entry of folders.get(folder)) {
        const players = entry.players ? `${entry.players[0]}${entry.players[1] !== entry.players[0] ? "–" + entry.players[1] : ""} players` : "does not load";
        const file = entry.path.slice(entry.path.lastIndexOf("/") + 1);
        list.append(el("li", {class: "ruleset" + (entry.players ? "" : " broken"), "data-testid": "ruleset", "data-path": entry.path,
          tabindex: "0", title: entry.path, onclick: () => openRuleset(entry.path),
          onkeydown: (event) => { if (event.key === "Enter") openRuleset(entry.path); }},
        el("span", {class: "ruleset-title"}, entry.title || file),
        el("span", {class: "ruleset-meta"}, file + " · " + players)));
      }
    }
    for (const item of list.querySelectorAll(".ruleset")) item.classList.toggle("active", item.dataset.path === app.path);
  } catch (error) {
    list.replaceChildren(el("li", {class: "error"}, errorText(error)));
  }
}

async function openRuleset(path) {
  if (editor.dirty && !confirm(path === app.path ? `Read ${path} again, discarding your unsaved changes?`
    : `Discard the unsaved changes to ${app.path}?`)) return;
  try {
    const result = await api.call("source", {path});
    app.path = result.path;
    const entry = app.rulesets.find((r) => r.path === result.path);
    app.title = entry && entry.title ? entry.title : result.path;
    $("current-title").textContent = app.title;
    document.title = `${app.title} · rulelang web`;
    for (const item of document.querySelectorAll(".ruleset")) item.classList.toggle("active", item.dataset.path === result.path);
    editor.setText(result.text, result.path);
    graph.stale = true;
    play.setupFor = null;
    if (app.tab === "graph") graph.drawIfStale();
    if (app.tab === "play") play.prepareSetup();
    if (app.tab !== "play" && app.tab !== "graph") showTab("editor");
  } catch (error) {
    showBanner(errorText(error));
  }
}

// ---------------------------------------------------------------------------------------
// The editor: a textarea over a highlighted <pre>, the linter's diagnostics under it
// ---------------------------------------------------------------------------------------

const KEYWORDS = new Set(("and as board break by call choose component continue deck desc die elif else end enum extends " +
  "false for from function gain game if in invariant let list log move next none not option or otherwise override pay " +
  "phase player procedure prompt random repeat return reveal roll score setup shown shuffle simultaneous size space " +
  "supply then tiebreak to total true until var visible when while zone players").split(" "));

const TOKEN = /(#.*)|("(?:[^"\\]|\\.)*"?)|(\b\d+(?:\.\d+)?\b)|([A-Za-z_][A-Za-z0-9_]*)|(\s+)|(.)/g;

const editor = {
  text: "",
  saved: "",
  path: null,
  dirty: false,
  diagnostics: [],
  lintTimer: null,
  lintSeq: 0,
  lineHeight: 18,

  init() {
    const area = $("editor-text");
    area.addEventListener("input", () => this.onInput());
    area.addEventListener("scroll", () => this.syncScroll());
    area.addEventListener("keydown", (event) => {
      if (event.key === "Tab" && !event.shiftKey && !event.ctrlKey && !event.metaKey) {
        event.preventDefault();
        document.execCommand("insertText", false, "  ");
      }
      if ((event.ctrlKey || event.metaKey) && event.key === "s") {
        event.preventDefault();
        this.save();
      }
    });
    $("save-source").addEventListener("click", () => this.save());
    window.addEventListener("beforeunload", (event) => {
      if (this.dirty) { event.preventDefault(); event.returnValue = ""; }
    });
  },

  setText(text, path) {
    const area = $("editor-text");
    area.disabled = false;
    area.value = text;
    area.scrollTop = 0;
    this.text = text;
    this.saved = text;
    this.path = path;
    this.diagnostics = [];
    $("editor-path").textContent = path;
    $("save-source").disabled = false;
    this.setDirty(false);
    this.render();
    this.lintNow();
  },

  onInput() {
    this.text = $("editor-text").value;
    this.setDirty(this.text !== this.saved);
    graph.stale = true;
    this.render();
    clearTimeout(this.lintTimer);
    $("lint-summary").textContent = "checking…";
    $("lint-summary").className = "muted";
    this.lintTimer = setTimeout(() => this.lintNow(), 300);
  },

  setDirty(dirty) {
    this.dirty = dirty;
    $("editor-dirty").textContent = dirty ? "● unsaved changes" : "";
  },

  async lintNow() {
    if (!this.path) return;
    const seq = ++this.lintSeq;
    const text = this.text;
    try {
      const result = await api.call("lint", {path: this.path, text});
      if (seq !== this.lintSeq) return;     // an older request: a newer one is on its way
      this.diagnostics = result.diagnostics;
    } catch (error) {
      if (seq !== this.lintSeq) return;
      this.diagnostics = [{severity: "error", code: error.code || "", message: errorText(error), line: 1, column: 1}];
    }
    this.render();
    this.renderDiagnostics();
  },

  /** The diagnostics of this file (not of a board file it loads), by line. */
  byLine() {
    const lines = new Map();
    for (const d of this.diagnostics) {
      if (!this.isHere(d) || !d.line) continue;
      if (!lines.has(d.line)) lines.set(d.line, []);
      lines.get(d.line).push(d);
    }
    return lines;
  },

  isHere(diagnostic) {
    return !diagnostic.file || diagnostic.file === this.path || this.path.endsWith("/" + diagnostic.file) ||
      diagnostic.file.endsWith(this.path);
  },

  render() {
    const lines = this.text.split("\n");
    const marks = this.byLine();
    const html = [];
    const gutter = [];
    for (let i = 0; i < lines.length; i++) {
      const number = i + 1;
      const here = marks.get(number);
      const severity = here ? worst(here) : null;
      html.push(`<span class="line${severity ? " diag-" + severity : ""}" data-line="${number}">` +
        highlightLine(lines[i], here || []) + "\n</span>");
      gutter.push(severity ? `<span class="gutter-${severity}" title="${escapeHtml(here.map((d) => d.message).join("\n")).replace(/"/g, "&quot;")}">${number}</span>` : String(number));
    }
    $("editor-code").innerHTML = html.join("") + "\n";
    $("editor-gutter").innerHTML = gutter.join("\n") + "\n\n";
    this.syncScroll();
  },

  renderDiagnostics() {
    const list = $("diagnostics");
    list.replaceChildren();
    const counts = {error: 0, warning: 0, info: 0};
    const sorted = [...this.diagnostics].sort((a, b) => (this.isHere(b) - this.isHere(a)) || (a.line - b.line) || (a.column - b.column));
    for (const d of sorted) {
      counts[d.severity] = (counts[d.severity] || 0) + 1;
      const where = (this.isHere(d) ? "" : (d.file || "?") + ":") + `${d.line || "?"}:${d.column || "?"}`;
      const item = el("li", {class: "diagnostic " + d.severity, "data-testid": "diagnostic", "data-line": d.line, "data-column": d.column,
        "data-severity": d.severity, "data-code": d.code, tabindex: "0",
        onclick: () => this.isHere(d) && this.jumpTo(d.line, d.column, d.end_line, d.end_column),
        onkeydown: (event) => { if (event.key === "Enter" && this.isHere(d)) this.jumpTo(d.line, d.column, d.end_line, d.end_column); }},
      el("span", {class: "sev"}, d.severity),
      el("a", {class: "where", "data-testid": "diagnostic-where"}, where),
      el("span", {class: "code"}, d.code || ""),
      el("span", {class: "message"}, d.message),
      d.hint ? el("div", {class: "hint"}, "hint: " + d.hint) : null);
      list.append(item);
    }
    const parts = [];
    if (counts.error) parts.push(`${counts.error} error${counts.error > 1 ? "s" : ""}`);
    if (counts.warning) parts.push(`${counts.warning} warning${counts.warning > 1 ? "s" : ""}`);
    if (counts.info) parts.push(`${counts.info} note${counts.info > 1 ? "s" : ""}`);
    const summary = $("lint-summary");
    summary.textContent = parts.length ? parts.join(", ") : "no problems found ✓";
    summary.className = counts.error ? "bad" : counts.warning ? "warn" : "good";
    summary.dataset.errors = String(counts.error);
    if (!this.diagnostics.length) list.append(el("li", {class: "muted"}, "The linter finds nothing to say."));
  },

  /** Puts the caret at line:col (1-based), selects up to end_line:end_column, scrolls there. */
  jumpTo(line, column, endLine, endColumn) {
    showTab("editor");
    const area = $("editor-text");
    const offset = (l, c) => {
      const lines = area.value.split("\n");
      let at = 0;
      const index = Math.min(l - 1, lines.length - 1);
      for (let i = 0; i < index; i++) at += lines[i].length + 1;
      return at + Math.min(Math.max(0, (c || 1) - 1), lines[index].length);
    };
    const start = offset(line, column);
    const end = endLine ? Math.max(start, offset(endLine, endColumn)) : start;
    area.focus({preventScroll: true});
    area.setSelectionRange(start, end);
    area.scrollTop = Math.max(0, (line - 4) * this.lineHeight);
    this.syncScroll();
    const target = document.querySelector(`#editor-code .line[data-line="${line}"]`);
    if (target) {
      target.classList.add("flash");
      setTimeout(() => target.classList.remove("flash"), 1200);
    }
  },

  syncScroll() {
    const area = $("editor-text");
    $("editor-highlight").scrollTop = area.scrollTop;
    $("editor-highlight").scrollLeft = area.scrollLeft;
    $("editor-gutter").scrollTop = area.scrollTop;
  },

  async save() {
    if (!this.path) return;
    try {
      const result = await api.call("save_source", {path: this.path, text: this.text});
      this.saved = this.text;
      this.setDirty(false);
      showBanner(`Saved ${result.path} (${result.bytes} bytes).`, "info");
      setTimeout(hideBanner, 2500);
      loadRulesets();
    } catch (error) {
      showBanner("Not saved: " + errorText(error));
    }
  },
};

function worst(diagnostics) {
  if (diagnostics.some((d) => d.severity === "error")) return "error";
  if (diagnostics.some((d) => d.severity === "warning")) return "warning";
  return "info";
}

/** One line of source as highlighted HTML; the columns a diagnostic covers are underlined. */
function highlightLine(line, diagnostics) {
  const kinds = new Array(line.length);
  TOKEN.lastIndex = 0;
  let match;
  while ((match = TOKEN.exec(line)) !== null) {
    const kind = match[1] ? "c" : match[2] ? "s" : match[3] ? "n" : match[4] ? (KEYWORDS.has(match[4]) ? "k" : "") : "";
    for (let i = match.index; i < match.index + match[0].length; i++) kinds[i] = kind;
    if (match[0].length === 0) TOKEN.lastIndex++;
  }
  const flags = new Array(line.length).fill("");
  for (const d of diagnostics) {
    const start = Math.max(0, (d.column || 1) - 1);
    let end = d.end_line === d.line && d.end_column ? d.end_column - 1 : line.length;
    if (end <= start) end = Math.min(line.length, start + 1);
    for (let i = start; i < end; i++) flags[i] = d.severity;
  }
  let html = "";
  let i = 0;
  while (i < line.length) {
    let j = i + 1;
    while (j < line.length && kinds[j] === kinds[i] && flags[j] === flags[i]) j++;
    const text = escapeHtml(line.slice(i, j));
    const classes = [kinds[i] ? "tok-" + kinds[i] : "", flags[i] ? "squiggle-" + flags[i] : ""].filter(Boolean).join(" ");
    html += classes ? `<span class="${classes}">${text}</span>` : text;
    i = j;
  }
  if (!line.length && diagnostics.length) html = `<span class="squiggle-${worst(diagnostics)}"> </span>`;
  return html;
}

// ---------------------------------------------------------------------------------------
// Loading the editor's text as a game
// ---------------------------------------------------------------------------------------

/** Loads the editor's text (saved or not) for a player count; reports a failure in the editor. */
async function loadEditorGame(players) {
  if (!app.path) throw new Error("open a ruleset first (the list on the left)");
  const fields = {path: app.path, text: editor.text};
  if (players) fields.players = players;
  try {
    return await api.call("load", fields);
  } catch (error) {
    if (error instanceof ProtocolError && error.diagnostics) {
      editor.diagnostics = error.diagnostics.map((d) => diagnosticFromError(d));
      editor.render();
      editor.renderDiagnostics();
    }
    throw error;
  }
}

function diagnosticFromError(error) {
  const match = /^(.*):(\d+):(\d+)$/.exec(error.location || "");
  return {severity: "error", code: error.code, message: error.message, hint: error.hint,
    file: match ? match[1] : null, line: match ? Number(match[2]) : 1, column: match ? Number(match[3]) : 1};
}

// ---------------------------------------------------------------------------------------
// The phase graph
// ---------------------------------------------------------------------------------------

const graph = {
  stale: true,
  handle: null,

  async drawIfStale() {
    if (this.stale) await this.draw();
  },

  async draw() {
    const view = $("graph-view");
    if (!app.path) {
      view.replaceChildren(el("div", {class: "empty"}, "Open a ruleset to see its phase graph."));
      return;
    }
    this.stale = false;
    view.replaceChildren(el("div", {class: "muted"}, "drawing…"));
    try {
      const loaded = await loadEditorGame(null);
      const result = await api.call("graph", {game: loaded.game});
      api.call("close", {handle: loaded.game}).catch(() => {});
      view.replaceChildren(drawGraph(result));
      $("graph-legend").replaceChildren(
        legendItem("kind-phase", "phase"), legendItem("kind-procedure", "procedure"), legendItem("kind-setup", "setup"),
        legendItem("kind-start", "start / end"), el("span", {class: "legend-item"}, "? asks a player · ⚄ chance"),
        el("span", {class: "legend-item"}, "— next · - - call · ··· ends the game"));
    } catch (error) {
      this.stale = true;
      view.replaceChildren(el("div", {class: "error-box", "data-testid": "graph-error"},
        "The ruleset does not load, so it has no graph: " + errorText(error)));
    }
  },
};

function legendItem(cls, text) {
  return el("span", {class: "legend-item"}, el("span", {class: "swatch " + cls}), text);
}

function drawGraph(data) {
  const nodes = data.nodes;
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const layers = new Map();
  for (const n of nodes) {
    if (!layers.has(n.layer)) layers.set(n.layer, []);
    layers.get(n.layer).push(n);
  }
  const boxHeight = 36;
  const rowGap = 70;
  const colGap = 26;
  const charWidth = 7.4;
  const widthOf = (n) => Math.max(70, n.label.length * charWidth + 30 + (n.decision ? 14 : 0) + (n.chance ? 14 : 0));
  let maxRow = 0;
  for (const row of layers.values()) {
    row.sort((a, b) => a.order - b.order);
    maxRow = Math.max(maxRow, row.reduce((w, n) => w + widthOf(n) + colGap, -colGap));
  }
  const margin = 40;
  const width = maxRow + 2 * margin + 60;
  const layerKeys = [...layers.keys()].sort((a, b) => a - b);
  const position = new Map();
  layerKeys.forEach((layer, rowIndex) => {
    const row = layers.get(layer);
    const rowWidth = row.reduce((w, n) => w + widthOf(n) + colGap, -colGap);
    let x = (width - rowWidth) / 2;
    for (const n of row) {
      const w = widthOf(n);
      position.set(n.id, {x, y: margin + rowIndex * (boxHeight + rowGap), w, h: boxHeight});
      x += w + colGap;
    }
  });
  const height = margin * 2 + layerKeys.length * (boxHeight + rowGap) - rowGap;
  const root = svg("svg", {width, height, viewBox: `0 0 ${width} ${height}`, class: "graph", "data-testid": "graph-svg"});
  const defs = svg("defs");
  for (const kind of ["next", "call", "end", "start"]) {
    defs.append(svg("marker", {id: "arrow-" + kind, viewBox: "0 0 10 10", refX: "9", refY: "5", markerWidth: "7", markerHeight: "7", orient: "auto-start-reverse"},
      svg("path", {d: "M 0 0 L 10 5 L 0 10 z", class: "arrow-" + kind})));
  }
  root.append(defs);
  const edges = svg("g", {class: "edges"});
  for (const edge of data.edges) {
    const a = position.get(edge.from);
    const b = position.get(edge.to);
    if (!a || !b) continue;
    let d;
    if (edge.from === edge.to) {
      const x = a.x + a.w;
      const y = a.y + a.h / 2;
      d = `M ${x} ${y - 8} C ${x + 40} ${y - 30}, ${x + 40} ${y + 30}, ${x} ${y + 8}`;
    } else if (b.y > a.y) {
      const x1 = a.x + a.w / 2;
      const y1 = a.y + a.h;
      const x2 = b.x + b.w / 2;
      const y2 = b.y;
      const bend = (y2 - y1) / 2;
      d = `M ${x1} ${y1} C ${x1} ${y1 + bend}, ${x2} ${y2 - bend}, ${x2} ${y2}`;
    } else {
      // An edge back up (a loop between phases): around the right side of both boxes.
      const x1 = a.x + a.w;
      const y1 = a.y + a.h / 2;
      const x2 = b.x + b.w;
      const y2 = b.y + b.h / 2;
      const out = Math.max(x1, x2) + 40 + Math.abs(y1 - y2) * 0.08;
      d = `M ${x1} ${y1} C ${out} ${y1}, ${out} ${y2}, ${x2} ${y2}`;
    }
    edges.append(svg("path", {d, class: "edge edge-" + edge.kind, "marker-end": `url(#arrow-${edge.kind})`, "data-testid": "graph-edge"},
      svg("title", {}, `${labelOf(byId.get(edge.from))} → ${labelOf(byId.get(edge.to))} (${edge.kind})`)));
  }
  root.append(edges);
  for (const n of nodes) {
    const p = position.get(n.id);
    const group = svg("g", {class: `node kind-${n.kind}${n.line ? " has-line" : ""}`, "data-testid": "graph-node", "data-node": n.id,
      transform: `translate(${p.x},${p.y})`, onclick: () => { if (n.line) editor.jumpTo(n.line, 1); }});
    const rx = n.kind === "start" || n.kind === "end" ? p.h / 2 : n.kind === "procedure" ? 3 : 8;
    group.append(svg("rect", {width: p.w, height: p.h, rx, ry: rx}));
    let label = n.label;
    if (n.decision) label += " ?";
    if (n.chance) label += " ⚄";
    group.append(svg("text", {x: p.w / 2, y: p.h / 2 + 5, "text-anchor": "middle"}, label));
    group.append(svg("title", {}, `${n.kind} ${n.label}${n.line ? " (line " + n.line + ")" : ""}` +
      (n.decision ? "; asks a player" : "") + (n.chance ? "; has chance" : "")));
    root.append(group);
  }
  return root;
}

function labelOf(node) {
  return node ? node.label : "?";
}

// ---------------------------------------------------------------------------------------
// Boards: drawn from the `boards` op's data, with the `view` op's marks
// ---------------------------------------------------------------------------------------

const TERRAIN_COLOURS = {
  sea: "#8ec5ea", ocean: "#8ec5ea", water: "#8ec5ea", lake: "#4f9fd8", river: "#a9dcef",
  jungle: "#3f8b48", forest: "#3f8b48", mountain: "#9c8a73", hill: "#b9a07c", beach: "#f1dc9a", sand: "#f1dc9a",
  desert: "#ecd28a", scrubland: "#b5c46e", grass: "#9fd17f", plains: "#c9e08f", swamp: "#7e9a6a",
  port: "#f3d28a", lair: "#c49ad9", home: "#f4a6a6", start: "#f4a6a6",
  red: "#e57373", blue: "#64b5f6", green: "#81c784", yellow: "#fff176", black: "#9e9e9e", white: "#fafafa",
};
const PALETTE = ["#f6bd60", "#84a59d", "#f28482", "#90be6d", "#b8c0ff", "#cdb4db", "#ffd6a5", "#a0c4ff",
  "#caffbf", "#ffadad", "#9bf6ff", "#bdb2ff"];
const SEAT_COLOURS = ["#d62828", "#1d4ed8", "#2a9d3f", "#e09f00", "#7b2cbf", "#0f766e", "#c2410c", "#db2777"];

function boardGeometry(board) {
  const spaces = board.spaces;
  // The distance between neighbouring centres, whatever the server's unit.
  let d = Infinity;
  const sample = spaces.slice(0, 300);
  for (let i = 0; i < sample.length; i++) {
    for (let j = i + 1; j < sample.length; j++) {
      const dx = sample[i].x - sample[j].x;
      const dy = sample[i].y - sample[j].y;
      const dist = Math.hypot(dx, dy);
      if (dist > 1e-6 && dist < d) d = dist;
    }
  }
  if (!isFinite(d)) d = 1;
  const cell = board.cell || (board.kind === "hex" ? "hex" : board.kind === "square" ? "square" : "circle");
  const pixels = cell === "hex" ? 54 : cell === "square" ? 64 : 62;
  return {d, cell, scale: pixels / d};
}

/** The attribute whose values colour the spaces (terrain, type...), and a second one to print. */
function colourAttributes(board) {
  const values = new Map();
  for (const s of board.spaces) {
    for (const [key, value] of Object.entries(s.attributes || {})) {
      if (typeof value !== "string") continue;
      if (!values.has(key)) values.set(key, {set: new Set(), count: 0});
      const entry = values.get(key);
      entry.set.add(value);
      entry.count++;
    }
  }
  const preferred = ["terrain", "type", "kind", "colour", "color", "region", "zone"];
  let colour = null;
  for (const key of preferred) {
    const entry = values.get(key);
    if (entry && entry.set.size >= 1 && entry.set.size <= 16) { colour = key; break; }
  }
  if (!colour) {
    for (const [key, entry] of values) {
      if (entry.set.size >= 2 && entry.set.size <= 12 && entry.count >= board.spaces.length * 0.8) { colour = key; break; }
    }
  }
  let extra = null;
  for (const [key, entry] of values) {
    if (key !== colour && entry.set.size <= 12 && entry.count < board.spaces.length * 0.5) { extra = key; break; }
  }
  const fills = new Map();
  if (colour) {
    const sorted = [...values.get(colour).set].sort();
    sorted.forEach((value, i) => fills.set(value, TERRAIN_COLOURS[value.toLowerCase()] || PALETTE[i % PALETTE.length]));
  }
  return {colour, extra, fills};
}

function isDark(colour) {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(colour);
  if (!match) return false;
  const [r, g, b] = match.slice(1).map((h) => parseInt(h, 16));
  return 0.299 * r + 0.587 * g + 0.114 * b < 128;
}

function seatOfMark(mark) {
  const match = /^(?:P|player\s*)(\d+)$/i.exec(String(mark).trim());
  return match ? Number(match[1]) - 1 : null;
}

/**
 * Draws one board. options: {marks: {space: [labels]}, clickable: Map(space -> option),
 * onChoose(option), testid}.
 */
function drawBoard(board, options = {}) {
  const {d, cell, scale} = boardGeometry(board);
  const {colour, extra, fills} = colourAttributes(board);
  const pad = d * 0.9;
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const s of board.spaces) {
    minX = Math.min(minX, s.x); maxX = Math.max(maxX, s.x);
    minY = Math.min(minY, s.y); maxY = Math.max(maxY, s.y);
  }
  if (!board.spaces.length) { minX = minY = 0; maxX = maxY = 1; }
  const width = (maxX - minX + 2 * pad) * scale;
  const height = (maxY - minY + 2 * pad) * scale;
  const px = (s) => (s.x - minX + pad) * scale;
  const py = (s) => (s.y - minY + pad) * scale;
  const unit = d * scale;  // pixels between neighbouring centres
  const root = svg("svg", {class: `board board-${cell}`, width: Math.round(width), height: Math.round(height),
    viewBox: `0 0 ${Math.round(width)} ${Math.round(height)}`, "data-testid": options.testid || "board-svg", "data-board": board.name});
  const arrowId = `link-arrow-${++drawBoard.count}`;   // unique: the same board is drawn in Play and in Replay
  root.append(svg("defs", {},
    svg("marker", {id: arrowId, viewBox: "0 0 10 10", refX: "10", refY: "5", markerWidth: "6", markerHeight: "6", orient: "auto"},
      svg("path", {d: "M 0 0 L 10 5 L 0 10 z", class: "link-arrow"}))));
  // Links (graph boards): a line from centre to centre, stopping at the circles' edges.
  const linkLayer = svg("g", {class: "links"});
  const radius = unit * 0.36;
  for (const [from, to] of board.links || []) {
    const a = board.spaces[from];
    const b = board.spaces[to];
    if (!a || !b) continue;
    const x1 = px(a); const y1 = py(a); const x2 = px(b); const y2 = py(b);
    const len = Math.hypot(x2 - x1, y2 - y1) || 1;
    const ux = (x2 - x1) / len; const uy = (y2 - y1) / len;
    const inset = cell === "circle" ? radius + 1 : 0;
    linkLayer.append(svg("line", {x1: x1 + ux * inset, y1: y1 + uy * inset, x2: x2 - ux * inset, y2: y2 - uy * inset,
      class: "link", "marker-end": `url(#${arrowId})`}));
  }
  root.append(linkLayer);
  const spaceLayer = svg("g", {class: "spaces"});
  const markLayer = svg("g", {class: "marks"});
  const marks = options.marks || {};
  const clickable = options.clickable || new Map();
  for (const s of board.spaces) {
    const x = px(s);
    const y = py(s);
    const attributes = s.attributes || {};
    const fill = colour && typeof attributes[colour] === "string" ? fills.get(attributes[colour]) : null;
    const option = clickable.get(s.name);
    const group = svg("g", {class: "space" + (option ? " option" : ""), "data-testid": "space", "data-space": s.name,
      "data-board": board.name, "data-fill": fill || "", transform: `translate(${x.toFixed(1)},${y.toFixed(1)})`});
    let shape;
    if (cell === "hex") {
      const r = unit / Math.sqrt(3);
      const points = [];
      for (let k = 0; k < 6; k++) {
        const angle = Math.PI / 180 * (60 * k - 90);
        points.push(`${(r * Math.cos(angle)).toFixed(1)},${(r * Math.sin(angle)).toFixed(1)}`);
      }
      shape = svg("polygon", {points: points.join(" "), class: "cell hex"});
    } else if (cell === "square") {
      const h = unit / 2;
      shape = svg("rect", {x: -h, y: -h, width: unit, height: unit, class: "cell square"});
    } else {
      shape = svg("circle", {r: radius, class: "cell circle"});
    }
    if (fill) shape.setAttribute("style", `fill:${fill}`);
    if (fill && isDark(fill)) group.classList.add("dark");
    group.append(shape);
    const fontSize = Math.max(7, Math.min(11, unit * 0.2));
    const nameY = cell === "circle" ? -radius - 3 : -unit * (cell === "hex" ? 0.3 : 0.32);
    group.append(svg("text", {class: "space-name", y: nameY.toFixed(1), "text-anchor": "middle", "font-size": fontSize}, s.name));
    if (extra && attributes[extra] !== undefined && attributes[extra] !== null) {
      group.append(svg("text", {class: "space-extra", y: (unit * 0.36).toFixed(1), "text-anchor": "middle", "font-size": fontSize},
        String(attributes[extra])));
    }
    const tooltip = [board.name + " " + s.name, ...Object.entries(attributes).map(([k, v]) => `${k}: ${typeof v === "object" ? JSON.stringify(v) : v}`)];
    if (option) tooltip.unshift("click to choose: " + option.label);
    group.append(svg("title", {}, tooltip.join("\n")));
    if (option) {
      group.setAttribute("tabindex", "0");
      group.setAttribute("data-option-id", option.id);
      group.addEventListener("click", () => options.onChoose(option));
      group.addEventListener("keydown", (event) => { if (event.key === "Enter") options.onChoose(option); });
    }
    spaceLayer.append(group);
    const here = marks[s.name];
    if (here && here.length) markLayer.append(drawMarks(here, x, y, unit, cell));
  }
  root.append(spaceLayer, markLayer);
  const wrapper = el("figure", {class: "board-figure", "data-board": board.name},
    el("figcaption", {}, el("span", {class: "board-name"}, humanName(board.name)), el("span", {class: "muted small"}, ` · ${board.spaces.length} spaces`)),
    root);
  if (colour && fills.size > 1) {
    wrapper.append(el("div", {class: "legend"}, el("span", {class: "muted small"}, humanName(colour) + ":"),
      [...fills].map(([value, fillColour]) => el("span", {class: "legend-item"},
        el("span", {class: "swatch", style: `background:${fillColour}`}), humanName(value)))));
  }
  return wrapper;
}

const COLOUR_WORDS = {red: "#c62828", green: "#2e7d32", blue: "#1565c0", yellow: "#b58900", purple: "#6a1b9a",
  orange: "#e65100", black: "#212121", white: "#9e9e9e", brown: "#6d4c41", pink: "#ad1457", grey: "#616161", gray: "#616161"};

function markColour(label) {
  const seat = seatOfMark(label);
  if (seat !== null) return SEAT_COLOURS[seat % SEAT_COLOURS.length];
  const word = String(label).toLowerCase().split(/[^a-z]+/).find((w) => w in COLOUR_WORDS);
  return word ? COLOUR_WORDS[word] : null;
}

drawBoard.count = 0;

function drawMarks(labels, x, y, unit, cell) {
  const group = svg("g", {class: "mark-group", transform: `translate(${x.toFixed(1)},${y.toFixed(1)})`});
  // At most two tokens on a hex or a square (three on a track's circle), then "+N more";
  // the tooltip lists them all. "green map (sites)": the variable's name is left out.
  const room = cell === "circle" ? 3 : 2;
  labels = labels.map((label) => String(label));
  labels = [...labels.filter((l) => seatOfMark(l) !== null), ...labels.filter((l) => seatOfMark(l) === null)];
  const shown = labels.length > room ? [...labels.slice(0, room - 1), `+${labels.length - room + 1} more`] : labels;
  const height = Math.max(10, unit * (cell === "square" ? 0.28 : cell === "circle" ? 0.24 : 0.2));
  const fontSize = height * 0.7;
  const rows = shown.length;
  const top = -(rows * (height + 1)) / 2 + (cell === "circle" ? 0 : unit * 0.08);
  shown.forEach((label, i) => {
    const text = label.replace(/\s*\([a-z_]+\)$/, "");
    const short = text.length > 14 ? text.slice(0, 13) + "…" : text;
    const w = Math.max(height * 1.6, short.length * fontSize * 0.6 + 6);
    const colour = markColour(text);
    const yy = top + i * (height + 1);
    group.append(svg("g", {class: "mark" + (seatOfMark(text) !== null ? " seat-mark" : ""), "data-testid": "mark", "data-mark": label},
      svg("rect", {x: -w / 2, y: yy, width: w, height, rx: height / 2, style: colour ? `fill:${colour}` : null}),
      svg("text", {x: 0, y: yy + height * 0.74, "text-anchor": "middle", "font-size": fontSize.toFixed(1)}, short),
      svg("title", {}, labels.join("\n"))));
  });
  return group;
}

// ---------------------------------------------------------------------------------------
// A seat's view: the table (globals, shared zones, each player), the log, the question
// ---------------------------------------------------------------------------------------

function isComponent(value) {
  return value && typeof value === "object" && !Array.isArray(value) && "component" in value && "label" in value;
}

function isZoneList(value) {
  return Array.isArray(value) && value.every(isComponent);
}

function isHiddenZone(value) {
  return value && typeof value === "object" && !Array.isArray(value) && Object.keys(value).length === 1 && "count" in value;
}

/** A card (a component seen face up): its label, the tokens on it, its variables that are set. */
function drawCard(card, context) {
  const option = context.cardOptions ? context.cardOptions.get(card.component) : null;
  const node = el("div", {class: "card" + (option ? " option" : ""), "data-testid": "card", "data-component": card.component,
    title: option ? "click to choose: " + option.label : null, tabindex: option ? "0" : null},
  el("div", {class: "card-label"}, card.label));
  if (card.tokens) {
    node.append(el("div", {class: "card-tokens"}, Object.entries(card.tokens).map(([name, count]) =>
      el("span", {class: "token", "data-testid": "card-token"}, `${humanName(name)} ${count}`))));
  }
  if (card.vars) {
    const set = Object.entries(card.vars).filter(([, v]) => v !== null && !(Array.isArray(v) && v.length === 0));
    if (set.length) {
      node.append(el("div", {class: "card-vars"}, set.map(([k, v]) => el("span", {}, `${humanName(k)}: ${show(v, 4)}`))));
    }
  }
  if (option) {
    node.addEventListener("click", () => context.onChoose(option));
    node.addEventListener("keydown", (event) => { if (event.key === "Enter") context.onChoose(option); });
  }
  return node;
}

function drawZone(name, value, context) {
  const box = el("div", {class: "zone", "data-testid": "zone", "data-zone": name});
  if (isHiddenZone(value)) {
    box.classList.add("hidden-zone");
    box.append(el("div", {class: "zone-name"}, el("span", {class: "zone-title"}, humanName(name)), el("span", {class: "zone-size"}, ` ${value.count} hidden`)),
      el("div", {class: "card-back", title: `${value.count} face down`}, value.count ? `${value.count} face down` : "empty"));
    return box;
  }
  box.append(el("div", {class: "zone-name"}, el("span", {class: "zone-title"}, humanName(name)), el("span", {class: "zone-size"}, ` ${value.length}`)));
  const cards = el("div", {class: "cards"});
  if (!value.length) cards.append(el("span", {class: "muted small"}, "empty"));
  // Alike cards that are not options (8 roses of player 1) are one card "× 8".
  const groups = new Map();
  for (const card of value) {
    const option = context.cardOptions && context.cardOptions.has(card.component);
    const key = option ? "#" + card.component : JSON.stringify([card.label, card.tokens || null, card.vars || null]);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(card);
  }
  for (const group of groups.values()) {
    const node = drawCard(group[0], context);
    if (group.length > 1) {
      node.append(el("span", {class: "card-count", "data-testid": "card-count"}, ` × ${group.length}`));
      node.dataset.count = String(group.length);
    }
    cards.append(node);
  }
  box.append(cards);
  return box;
}

/** Splits a view's entries into simple values (a table) and zones (rows of cards). */
function drawEntries(entries, context) {
  const values = el("dl", {class: "values"});
  const zones = el("div", {class: "zones"});
  const empty = [];
  for (const [name, value] of entries) {
    if (isZoneList(value) || isHiddenZone(value)) {
      if ((Array.isArray(value) && value.length === 0) || (isHiddenZone(value) && value.count === 0)) empty.push(name);
      else zones.append(drawZone(name, value, context));
    } else {
      values.append(el("dt", {}, humanName(name)), el("dd", {"data-name": name}, show(value)));
    }
  }
  if (empty.length) {
    zones.append(el("div", {class: "empty-zones", "data-testid": "empty-zones"}, el("span", {class: "zone-name"}, "empty: "),
      empty.map(humanName).join(", ")));
  }
  return [values, zones].filter((part) => part.childElementCount);
}

function drawTable(target, view, context) {
  const obs = view.observation;
  target.replaceChildren();
  const seats = view.seats || obs.players.map((_, i) => seatName(i));
  // Shared: globals and shared zones.
  const shared = el("section", {class: "panel shared", "data-testid": "shared"}, el("h3", {}, "Table"));
  const globals = Object.entries(obs.globals || {}).filter(([, v]) => !(Array.isArray(v) && v.length > 20 && v.every((x) => x && x.space)));
  const sharedParts = drawEntries([...globals, ...Object.entries(obs.zones || {})], context);
  shared.append(...sharedParts);
  if (sharedParts.length) target.append(shared);
  const players = el("div", {class: "players"});
  const order = obs.players.map((_, i) => i);
  if (context.seat !== null && context.seat >= 0) order.sort((a, b) => (b === context.seat) - (a === context.seat));
  for (const index of order) {
    const mine = index === context.seat;
    const acting = (obs.to_act || []).includes(index);
    const title = el("h3", {}, el("span", {class: "seat-dot", style: `background:${SEAT_COLOURS[index % SEAT_COLOURS.length]}`}),
      seats[index] || seatName(index),
      mine ? el("span", {class: "badge you"}, "you") : context.botName ? el("span", {class: "badge"}, context.botName(index)) : null,
      acting ? el("span", {class: "badge acting"}, "to act") : null,
      view.winners && view.terminal && view.winners.includes(index) ? el("span", {class: "badge winner"}, "winner") : null);
    const panel = el("section", {class: "panel player" + (mine ? " mine" : ""), "data-testid": mine ? "my-seat" : "other-seat", "data-seat": index}, title);
    panel.append(...drawEntries(Object.entries(obs.players[index] || {}), context));
    players.append(panel);
  }
  target.append(players);
}

function drawLog(target, lines, freshFrom) {
  // Newest first in the list, shown at the bottom (the list is laid out bottom up, so that it
  // starts scrolled to its newest line without the page measuring it).
  const items = lines.map((line, i) => el("li", {class: i >= freshFrom ? "fresh" : "", "data-testid": "log-line"}, String(line)));
  items.reverse();
  target.replaceChildren(...items);
  if (!lines.length) target.append(el("li", {class: "muted"}, "nothing yet"));
}

/** The boards of a game with a view's marks; options with a space become clickable there. */
function drawBoards(target, boards, view, onChoose, testid) {
  target.replaceChildren();
  const spaceOptions = new Map();
  if (view.question && onChoose) {
    for (const option of view.question.options) {
      if (!option.space) continue;
      if (!spaceOptions.has(option.space.board)) spaceOptions.set(option.space.board, new Map());
      const board = spaceOptions.get(option.space.board);
      if (!board.has(option.space.space)) board.set(option.space.space, option);
    }
  }
  for (const board of boards) {
    target.append(drawBoard(board, {marks: (view.marks || {})[board.name] || {}, clickable: spaceOptions.get(board.name),
      onChoose, testid}));
  }
}

// ---------------------------------------------------------------------------------------
// Play: one seat for the person, bots for the others
// ---------------------------------------------------------------------------------------

const play = {
  game: null,        // {handle, path, players, seats, boards, title}
  state: null,
  seat: 0,
  bots: ["random"],
  seed: 1,
  undo: [],          // clones taken before each of the person's choices
  pendingClone: null, // the clone (a promise) of the state the person is asked about now
  clicks: 0,
  botMoves: 0,
  running: null,     // the generation whose loop (bots, or the person's choice) is running
  setupFor: null,
  logSeen: 0,
  lastView: null,
  generation: 0,     // bumps when a game is started or dropped: stale loops stop

  init() {
    $("play-setup").addEventListener("submit", (event) => { event.preventDefault(); this.start(); });
    $("play-players").addEventListener("change", () => this.fillSeats());
    $("play-undo").addEventListener("click", () => this.undoLast());
    $("play-save").addEventListener("click", () => this.download());
  },

  prepareSetup() {
    if (!app.path || this.setupFor === app.path) return;
    this.setupFor = app.path;
    const entry = app.rulesets.find((r) => r.path === app.path);
    const range = entry && entry.players ? entry.players : [2, 6];
    const select = $("play-players");
    const previous = Number(select.value);
    select.replaceChildren();
    for (let n = range[0]; n <= range[1]; n++) select.append(el("option", {value: n}, String(n)));
    select.value = previous >= range[0] && previous <= range[1] ? String(previous) : String(range[0]);
    this.fillSeats();
  },

  fillSeats() {
    const n = Number($("play-players").value) || 2;
    const select = $("play-seat");
    const previous = Number(select.value || 0);
    select.replaceChildren();
    for (let i = 0; i < n; i++) select.append(el("option", {value: i}, seatName(i)));
    select.value = String(previous < n ? previous : 0);
  },

  /** Closes the copy made for an Undo that will not come (the state changed otherwise). */
  dropPendingClone() {
    if (!this.pendingClone) return;
    this.pendingClone.then((copy) => api.call("close", {handle: copy.state})).catch(() => {});
    this.pendingClone = null;
  },

  reset() {
    this.generation++;
    this.pendingClone = null;
    this.game = null;
    this.state = null;
    this.undo = [];
    this.running = null;
    $("play-area").hidden = true;
    $("play-empty").hidden = false;
    $("play-undo").disabled = true;
    $("play-save").disabled = true;
  },

  botName(index) {
    if (index === this.seat) return "you";
    const others = [];
    for (let i = 0; i < this.game.players; i++) if (i !== this.seat) others.push(i);
    const k = others.indexOf(index);
    return "bot: " + this.bots[k % this.bots.length];
  },

  async start() {
    hideBanner();
    if (!app.path) { showBanner("Open a ruleset first (the list on the left)."); return; }
    const players = Number($("play-players").value);
    const seat = Number($("play-seat").value);
    const bots = $("play-bots").value.split(",").map((s) => s.trim()).filter(Boolean);
    const seed = Number($("play-seed").value) || 0;
    const generation = ++this.generation;
    $("play-start").disabled = true;
    try {
      const loaded = await loadEditorGame(players);
      const boards = await api.call("boards", {game: loaded.game}).then((r) => r.boards).catch(() => []);
      const started = await api.call("new_game", {game: loaded.game, seed});
      if (generation !== this.generation) return;
      const old = this.game;
      this.game = {handle: loaded.game, players: loaded.players, seats: loaded.seats, boards, title: loaded.title, path: app.path};
      if (old && !replay.uses(old.handle)) api.call("close", {handle: old.handle}).catch(() => {});
      this.dropPendingClone();
      this.state = started.state;
      this.seat = seat;
      this.bots = bots.length ? bots : ["random"];
      this.seed = seed;
      this.undo = [];
      this.clicks = 0;
      this.botMoves = 0;
      this.logSeen = 0;
      $("play-empty").hidden = true;
      $("play-area").hidden = false;
      $("play-over").hidden = true;
      $("play-save").disabled = false;
      $("pane-play").dataset.clicks = "0";
      await this.advance(generation, started.to_act, started.terminal);
    } catch (error) {
      showBanner("Cannot start the game: " + errorText(error));
    } finally {
      $("play-start").disabled = false;
    }
  },

  setPhase(phase) {
    $("pane-play").dataset.phase = phase;
  },

  /**
   * Lets the bots act until the person is asked, or the game ends; then draws the seat's view.
   * ``toAct``/``terminal`` come from the last reply (new_game, apply); null: ask the server.
   */
  async advance(generation, toAct = null, terminal = false) {
    if (this.running === generation) return;
    this.running = generation;
    this.setPhase("bots");
    try {
      let shown = false;
      for (let guard = 0; guard < 100000; guard++) {
        if (generation !== this.generation) return;
        let view = null;
        if (toAct === null) {
          view = await api.call("view", {state: this.state, player: this.seat});
          toAct = view.observation.to_act || [];
          terminal = view.terminal;
        }
        const bot = terminal ? undefined : toAct.find((p) => p !== this.seat && p >= 0);
        if (bot === undefined) {
          if (!view) view = await api.call("view", {state: this.state, player: this.seat});
          if (generation !== this.generation) return;
          this.render(view);
          if (view.terminal) {
            this.showOver(view);
            this.setPhase("over");
          } else if ((view.observation.to_act || []).includes(this.seat)) {
            // The copy for Undo is made now, while the person reads the question.
            this.dropPendingClone();
            this.pendingClone = api.call("clone", {state: this.state}, {quiet: true});
            this.pendingClone.catch(() => {});
            this.setPhase("yours");
          } else {
            this.setPhase("stuck");
            showBanner("Nobody is to act and the game is not over: the rules are stuck.");
          }
          return;
        }
        if (!shown) {
          drawQuestion($("play-question"), {observation: {to_act: toAct}, terminal: false}, null, this, true);
          shown = true;
        }
        const choice = await api.call("agent_action", {state: this.state, player: bot, agent: this.botName(bot).slice(5),
          seed: (this.seed * 1000003 + this.botMoves * 7919 + bot) % 2147483647});
        this.botMoves++;
        if (generation !== this.generation) return;
        const applied = await api.call("apply", {state: this.state, action: choice.action[0], player: bot});
        toAct = applied.to_act;
        terminal = applied.terminal;
      }
    } catch (error) {
      if (generation === this.generation) {
        showBanner("The game stopped: " + errorText(error));
        this.setPhase("error");
      }
    } finally {
      if (this.running === generation) this.running = null;
    }
  },

  async choose(option) {
    if (this.running !== null || $("pane-play").dataset.phase !== "yours") return;
    const generation = this.generation;
    this.running = generation;
    this.setPhase("applying");
    let applied;
    let clone = null;
    try {
      clone = await (this.pendingClone || api.call("clone", {state: this.state}));
      this.pendingClone = null;
      applied = await api.call("apply", {state: this.state, action: option.id, player: this.seat});
      this.undo.push(clone.state);
      if (this.undo.length > 300) api.call("close", {handle: this.undo.shift()}).catch(() => {});
      this.clicks++;
      $("pane-play").dataset.clicks = String(this.clicks);
      this.logSeen = this.lastView ? this.lastView.observation.log.length : 0;
    } catch (error) {
      if (clone) this.pendingClone = Promise.resolve(clone);   // the state did not change: keep the copy
      showBanner("That choice was refused: " + errorText(error));
      this.running = null;
      this.setPhase("yours");
      return;
    }
    this.running = null;
    await this.advance(generation, applied.to_act, applied.terminal);
  },

  async undoLast() {
    if (this.running !== null || !this.undo.length) return;
    const generation = this.generation;
    const previous = this.undo.pop();
    const current = this.state;
    this.dropPendingClone();
    this.state = previous;
    this.clicks = Math.max(0, this.clicks - 1);
    $("pane-play").dataset.clicks = String(this.clicks);
    $("play-over").hidden = true;
    api.call("close", {handle: current}).catch(() => {});
    this.logSeen = 0;
    await this.advance(generation);
  },

  render(view, botsThinking = false) {
    this.lastView = view;
    const obs = view.observation;
    $("play-undo").disabled = !this.undo.length;
    const context = {seat: this.seat, cardOptions: null, onChoose: (option) => this.choose(option),
      botName: (i) => this.botName(i)};
    const question = view.question && !botsThinking && (view.question.players || obs.to_act || []).includes(this.seat) ? view.question : null;
    if (question) {
      context.cardOptions = new Map();
      for (const option of question.options) if (option.component !== null && option.component !== undefined) context.cardOptions.set(option.component, option);
    }
    drawQuestion($("play-question"), view, question, this, botsThinking);
    drawBoards($("play-boards"), this.game.boards, question ? view : {...view, question: null}, question ? (option) => this.choose(option) : null);
    drawTable($("play-table"), view, context);
    drawLog($("play-log"), obs.log || [], this.logSeen);
  },

  showOver(view) {
    const box = $("play-over");
    box.hidden = false;
    box.replaceChildren(drawOver(view, this.seat, this.game.seats),
      el("div", {class: "buttons"},
        el("button", {type: "button", class: "primary", "data-testid": "replay-this", onclick: () => replay.fromPlay()}, "Replay this game"),
        el("button", {type: "button", "data-testid": "save-this", onclick: () => this.download()}, "Save game"),
        el("button", {type: "button", "data-testid": "play-again", onclick: () => this.start()}, "New game")));
    $("play-undo").disabled = !this.undo.length;
  },

  async download() {
    if (!this.state) return;
    try {
      const saved = await api.call("save", {state: this.state, text: true});
      const name = (app.path || "game").replace(/^.*\//, "").replace(/\.rules$/, "") + `-seed${this.seed}.json`;
      const blob = new Blob([saved.text], {type: "application/json"});
      const link = el("a", {href: URL.createObjectURL(blob), download: name});
      document.body.append(link);
      link.click();
      link.remove();
    } catch (error) {
      showBanner("Cannot save the game: " + errorText(error));
    }
  },
};

function drawQuestion(target, view, question, owner, botsThinking) {
  target.replaceChildren();
  const obs = view.observation;
  target.hidden = !!view.terminal;
  if (view.terminal) return;
  if (!question) {
    const waiting = (obs.to_act || []).map(seatName).join(", ");
    target.append(el("div", {class: "prompt muted", "data-testid": "waiting"}, botsThinking ? `The bots are playing… (to act: ${waiting})` : `Waiting for ${waiting}.`));
    return;
  }
  const others = (obs.to_act || []).filter((p) => p !== owner.seat);
  const note = question.kind === "simultaneous" || obs.already_chosen ?
    "Everyone chooses at the same time; the others' choices stay secret until they are revealed." :
    others.length ? `Also to act: ${others.map(seatName).join(", ")}.` : null;
  target.append(el("div", {class: "your-turn"}, "Your turn, " + seatName(owner.seat)),
    el("div", {class: "prompt", "data-testid": "prompt"}, question.prompt || "choose"));
  if (note) target.append(el("div", {class: "muted small"}, note));
  const hasSpaces = question.options.some((o) => o.space);
  const hasCards = question.options.some((o) => o.component !== null && o.component !== undefined);
  if (hasSpaces || hasCards) {
    const folded = question.options.length > 12 && question.options.every((o) => o.space);
    target.append(el("div", {class: "hint-line"}, folded ? "Click one of the highlighted spaces on the board." :
      "Click an option below" + (hasSpaces ? ", or a highlighted space on the board" : "") + (hasCards ? ", or a highlighted card" : "") + "."));
  }
  const buttons = el("div", {class: "options", "data-testid": "options"});
  for (const option of question.options) {
    buttons.append(el("button", {type: "button", class: "option-button", "data-testid": "option", "data-option-id": option.id,
      title: option.space ? `${option.space.board} ${option.space.space}` : null,
      onclick: () => owner.choose(option)}, option.label));
  }
  if (question.options.length > 12 && question.options.every((o) => o.space)) {
    // Many spaces: the board is the way to choose; the list stays at hand, folded.
    target.append(el("details", {class: "option-list", "data-testid": "option-list"},
      el("summary", {}, `or choose from the list (${question.options.length} spaces)`), buttons));
  } else {
    target.append(buttons);
  }
}

function drawOver(view, seat, seats) {
  const returns = view.returns || view.observation.returns || [];
  const winners = view.winners || view.observation.winners || [];
  const names = seats || returns.map((_, i) => seatName(i));
  const verdict = seat === null || seat < 0 ? "" : winners.includes(seat) ? (winners.length > 1 ? "You share the win!" : "You win!") : "You lose.";
  const table = el("table", {class: "results", "data-testid": "results"},
    el("tr", {}, el("th", {}, "seat"), el("th", {}, "result"), el("th", {}, "")),
    names.map((name, i) => el("tr", {class: winners.includes(i) ? "winner" : "", "data-seat": i},
      el("td", {}, name + (i === seat ? " (you)" : "")), el("td", {}, returns[i] === undefined ? "" : String(returns[i])),
      el("td", {}, winners.includes(i) ? "★ winner" : ""))));
  return el("div", {}, el("h2", {}, "Game over", verdict ? el("span", {class: "verdict"}, " — " + verdict) : null), table);
}

// ---------------------------------------------------------------------------------------
// Replay: step through a finished or saved game with the `replay` op
// ---------------------------------------------------------------------------------------

const replay = {
  source: null,      // {game, state, boards, seats, players}
  stepState: null,
  step: 0,          // the step shown
  target: 0,        // the step asked for (clicks may come faster than the replies)
  steps: 0,
  seat: 0,
  seq: 0,

  init() {
    $("replay-prev").addEventListener("click", () => this.go(this.target - 1));
    $("replay-next").addEventListener("click", () => this.go(this.target + 1));
    $("replay-first").addEventListener("click", () => this.go(0));
    $("replay-last").addEventListener("click", () => this.go(this.steps));
    $("replay-slider").addEventListener("input", () => this.go(Number($("replay-slider").value)));
    $("replay-seat").addEventListener("change", () => { this.seat = Number($("replay-seat").value); this.go(this.step); });
    $("replay-file").addEventListener("change", () => this.fromFile());
    document.addEventListener("keydown", (event) => {
      if (app.tab !== "replay" || !this.source || event.target.tagName === "INPUT" && event.target.type !== "range") return;
      if (event.key === "ArrowRight") { event.preventDefault(); this.go(this.target + 1); }
      if (event.key === "ArrowLeft") { event.preventDefault(); this.go(this.target - 1); }
    });
  },

  uses(handle) {
    return this.source !== null && this.source.game === handle;
  },

  reset() {
    this.source = null;
    this.stepState = null;
    $("replay-area").hidden = true;
    $("replay-empty").hidden = false;
  },

  async fromPlay() {
    if (!play.state || !play.game) return;
    try {
      const saved = await api.call("save", {state: play.state, text: true});
      const restored = await api.call("restore", {game: play.game.handle, text: saved.text});
      await this.open({game: play.game.handle, state: restored.state, boards: play.game.boards, seats: play.game.seats,
        players: play.game.players}, play.seat);
      showTab("replay");
    } catch (error) {
      showBanner("Cannot replay: " + errorText(error));
    }
  },

  async fromFile() {
    const file = $("replay-file").files[0];
    if (!file) return;
    try {
      const text = await file.text();
      let players;
      try {
        players = JSON.parse(text).players;
      } catch (_) {
        throw new Error("the file is not JSON: a saved game is the JSON that 'Save game' writes");
      }
      const loaded = await loadEditorGame(players);
      const boards = await api.call("boards", {game: loaded.game}).then((r) => r.boards).catch(() => []);
      const restored = await api.call("restore", {game: loaded.game, text});
      await this.open({game: loaded.game, state: restored.state, boards, seats: loaded.seats, players: loaded.players}, 0);
    } catch (error) {
      showBanner("Cannot replay that file: " + errorText(error));
    } finally {
      $("replay-file").value = "";
    }
  },

  async open(source, seat) {
    const old = this.source;
    this.source = source;
    // The old source's game goes too, unless a game being played (or this source) uses it.
    if (old && old.game !== source.game && !(play.game && play.game.handle === old.game)) {
      api.call("close", {handle: old.game}).catch(() => {});
    } else if (old) {
      api.call("close", {handle: old.state}).catch(() => {});
      if (this.stepState) api.call("close", {handle: this.stepState}).catch(() => {});
    }
    this.stepState = null;
    const select = $("replay-seat");
    select.replaceChildren();
    const seats = source.seats || Array.from({length: source.players}, (_, i) => seatName(i));
    seats.forEach((name, i) => select.append(el("option", {value: i}, name)));
    select.append(el("option", {value: -1}, "the public (no seat)"));
    this.seat = seat;
    select.value = String(seat);
    this.steps = 0;
    $("replay-empty").hidden = true;
    $("replay-area").hidden = false;
    await this.go(0);
  },

  async go(step) {
    if (!this.source) return;
    if (step < 0 || (this.steps && step > this.steps)) return;
    this.target = step;
    const seq = ++this.seq;
    try {
      const result = await api.call("replay", {state: this.source.state, step: Math.max(0, step)});
      if (seq !== this.seq) { api.call("close", {handle: result.state}).catch(() => {}); return; }
      const view = await api.call("view", {state: result.state, player: this.seat});
      if (seq !== this.seq) { api.call("close", {handle: result.state}).catch(() => {}); return; }
      if (this.stepState) api.call("close", {handle: this.stepState}).catch(() => {});
      this.stepState = result.state;
      this.step = result.step;
      this.steps = result.steps;
      this.render(result, view);
    } catch (error) {
      showBanner("Cannot show that step: " + errorText(error));
    }
  },

  render(result, view) {
    const slider = $("replay-slider");
    slider.max = String(result.steps);
    slider.value = String(result.step);
    $("pane-replay").dataset.step = String(result.step);
    $("replay-step").textContent = `step ${result.step} of ${result.steps}`;
    $("replay-prev").disabled = result.step <= 0;
    $("replay-first").disabled = result.step <= 0;
    $("replay-next").disabled = result.step >= result.steps;
    $("replay-last").disabled = result.step >= result.steps;
    const last = result.last;
    const toAct = (result.to_act || []).map(seatName).join(", ");
    const line = el("span", {},
      last ? el("span", {}, el("strong", {}, seatName(last.player)), " chose ", el("strong", {"data-testid": "replay-last-label"}, last.label || String(last.action)))
        : el("span", {class: "muted"}, "The start of the game."),
      result.terminal ? el("span", {class: "muted"}, " · the game is over") : toAct ? el("span", {class: "muted"}, ` · next to act: ${toAct}`) : null);
    $("replay-last-action").replaceChildren(line);
    const over = $("replay-over");
    if (result.terminal) {
      over.hidden = false;
      over.replaceChildren(drawOver(view, null, this.source.seats));
    } else {
      over.hidden = true;
    }
    drawBoards($("replay-boards"), this.source.boards, {...view, question: null}, null, "replay-board-svg");
    drawTable($("replay-table"), view, {seat: this.seat, cardOptions: null, onChoose: null, botName: null});
    drawLog($("replay-log"), view.observation.log || [], Infinity);
  },
};

// ---------------------------------------------------------------------------------------
// Start
// ---------------------------------------------------------------------------------------

function init() {
  for (const button of document.querySelectorAll(".tab")) button.addEventListener("click", () => showTab(button.dataset.tab));
  $("banner-close").addEventListener("click", hideBanner);
  $("graph-refresh").addEventListener("click", () => graph.draw());
  editor.init();
  play.init();
  replay.init();
  showTab("editor");
  loadRulesets().then(() => {
    const wanted = new URLSearchParams(location.search).get("open");
    if (wanted) openRuleset(wanted);
  });
}

window.rulelangPage = {api, app, editor, play, replay, graph};
document.addEventListener("DOMContentLoaded", init);
