// The phase graph of the ruleset in the editor, from the `graph` op's layout.

import {$, el, svg} from "./dom.js";
import {api, errorText} from "./api.js";
import {app} from "./page.js";
import {editor, loadEditorGame} from "./editor.js";

export const graph = {
  drawnVersion: null,  // the editor's version last drawn (null: none, or it did not load)
  handle: null,

  get stale() {
    return this.drawnVersion !== editor.version;
  },

  async drawIfStale() {
    if (this.stale) await this.draw();
  },

  async draw() {
    const view = $("graph-view");
    if (!app.path) {
      view.replaceChildren(el("div", {class: "empty"}, "Open a ruleset to see its phase graph."));
      return;
    }
    this.drawnVersion = editor.version;
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
      this.drawnVersion = null;
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
