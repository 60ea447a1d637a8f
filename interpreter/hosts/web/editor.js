// The editor: a textarea over a highlighted <pre>, the linter's diagnostics under it; and
// the loading of the editor's text (saved or not) as a game.

import {$, el, escapeHtml} from "./dom.js";
import {ProtocolError, api, errorText, hideBanner, showBanner} from "./api.js";
import {app, showTab} from "./page.js";
import {KEYWORDS as GRAMMAR_KEYWORDS} from "./keywords.js";

const KEYWORDS = new Set(GRAMMAR_KEYWORDS);   // served by rulelang web, read from the grammar

const TOKEN = /(#.*)|("(?:[^"\\]|\\.)*"?)|(\b\d+(?:\.\d+)?\b)|([A-Za-z_][A-Za-z0-9_]*)|(\s+)|(.)/g;

export const editor = {
  text: "",
  saved: "",
  path: null,
  dirty: false,
  diagnostics: [],
  lintTimer: null,
  lintSeq: 0,
  lineHeight: 18,
  version: 0,        // bumps with every change of the text: the graph knows when it is stale
  onSaved: () => {}, // what follows a save (app.js sets it: the rulesets list is read again)

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
    this.version++;
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
    this.version++;
    this.setDirty(this.text !== this.saved);
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
      this.onSaved();
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

/** Loads the editor's text (saved or not) for a player count; reports a failure in the editor. */
export async function loadEditorGame(players) {
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
