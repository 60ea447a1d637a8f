// Boards: drawn from the `boards` op's data, with the `view` op's marks.

import {counted, el, humanName, svg} from "./dom.js";
import {drawSpaceTexts, sideBox, tokenMarks} from "./board_texts.js";

// Spaces whose colours the ruleset's presentation does not declare take these, by the rank of
// their value among the board's values sorted: light, neutral tints that keep names readable.
const PALETTE = ["#f6bd60", "#84a59d", "#f28482", "#90be6d", "#b8c0ff", "#cdb4db", "#ffd6a5", "#a0c4ff",
  "#caffbf", "#ffadad", "#9bf6ff", "#bdb2ff"];
export const SEAT_COLOURS = ["#d62828", "#1d4ed8", "#2a9d3f", "#e09f00", "#7b2cbf", "#0f766e", "#c2410c", "#db2777"];

// A track's circle and the names beside it, in distances between neighbouring centres: the
// sizes the server measures with when it chooses the side of each name (label_places.py).
const CIRCLE_RADIUS = 0.36;
const NAME_HEIGHT = 0.18;
const CHARACTER_WIDTH = 0.62;
const NAME_GAP = 0.05;

/** The box of a name written beside a circle of centre (0, 0) on ``side``, in the unit ``unit``. */
function nameBox(name, side, unit) {
  const width = Math.max(1, name.length) * CHARACTER_WIDTH * NAME_HEIGHT * unit;
  return sideBox(width, NAME_HEIGHT * unit, side, CIRCLE_RADIUS * unit, NAME_GAP * unit);
}

/** A track space's name beside its circle, on ``side`` (its edge nearest the circle there). */
function sideName(name, side, radius, unit, fontSize) {
  const box = nameBox(name, side, unit);
  const anchor = side[0] > 0 ? "start" : side[0] < 0 ? "end" : "middle";
  return svg("text", {class: "space-name", x: box.x.toFixed(1), y: ((box.top + box.bottom) / 2).toFixed(1),
    "text-anchor": anchor, "dominant-baseline": "central", "font-size": fontSize.toFixed(1), "data-side": side.join(",")}, name);
}

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
  const pixels = cell === "hex" ? 62 : cell === "square" ? 64 : 62;
  return {d, cell, scale: pixels / d};
}

/** The text values of each attribute of a board's spaces, and on how many spaces it is. */
function attributeValues(board) {
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
  return values;
}

/** Without a declared one, the attribute that colours the spaces: a text that most spaces
 * have, with 2 to 12 values (the one on most spaces; the first of them). */
function likelyColourAttribute(board, values) {
  let best = null;
  for (const [key, entry] of values) {
    const fits = entry.set.size >= 2 && entry.set.size <= 12 && entry.count >= board.spaces.length * 0.8;
    if (fits && (best === null || entry.count > values.get(best).count)) best = key;
  }
  return best;
}

/**
 * How a board's spaces are coloured: by the attribute its presentation declares
 * (`present { BOARD { colour ATTRIBUTE } }`: ``declared.attribute``) or else a likely one,
 * each value in its declared colour (``declared.values``: `BOARD.VALUE { colour "..." }`) or
 * else a tint of PALETTE by its rank among the values sorted; the legend writes each value
 * by its declared name. Also a second, sparse attribute to print on the spaces (a landmark).
 */
function spaceColours(board, declared) {
  const values = attributeValues(board);
  const looks = (declared && declared.values) || {};
  const colour = (declared && declared.attribute) || likelyColourAttribute(board, values);
  let extra = null;
  for (const [key, entry] of values) {
    if (key !== colour && entry.set.size <= 12 && entry.count < board.spaces.length * 0.5) { extra = key; break; }
  }
  const fills = new Map();
  const names = new Map();
  if (colour) {
    const found = new Set(board.spaces.map((s) => (s.attributes || {})[colour])
      .filter((value) => value !== undefined && value !== null && typeof value !== "object").map(String));
    [...found].sort().forEach((value, i) => {
      const look = looks[value] || {};
      fills.set(value, look.colour || PALETTE[i % PALETTE.length]);
      names.set(value, look.name || humanName(value));
    });
  }
  return {colour, extra, fills, names, declared: Object.keys(looks).length > 0};
}

/** A colour as #rrggbb: a ruleset's colour may be a name ("navy") or #rgb; the canvas says. */
function hexColour(colour) {
  if (!hexColour.context) hexColour.context = document.createElement("canvas").getContext("2d");
  const context = hexColour.context;
  if (!context) return colour;
  context.fillStyle = "#000000";
  context.fillStyle = colour;
  return context.fillStyle;
}

function isDark(colour) {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hexColour(colour));
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
 * onChoose(option), testid}; from the ruleset's presentation, texts: {space: {label, corner}},
 * tokens: {space: [token]} (board_texts.js) and colours: {attribute, values} (spaceColours).
 */
export function drawBoard(board, options = {}) {
  const {d, cell, scale} = boardGeometry(board);
  const {colour, extra, fills, names, declared} = spaceColours(board, options.colours);
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
  // A track's names beside their circles, on the side the server chose: room for them too.
  for (const s of cell === "circle" ? board.spaces : []) {
    const box = nameBox(s.name, s.label || [0, -1], d);
    const margin = pad - d * 0.1;   // the names keep a tenth of a cell from the edge
    minX = Math.min(minX, s.x + box.left + margin); maxX = Math.max(maxX, s.x + box.right - margin);
    minY = Math.min(minY, s.y + box.top + margin); maxY = Math.max(maxY, s.y + box.bottom - margin);
  }
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
  const radius = unit * CIRCLE_RADIUS;
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
  const texts = options.texts || {};
  const tokens = options.tokens || {};
  const clickable = options.clickable || new Map();
  for (const s of board.spaces) {
    const x = px(s);
    const y = py(s);
    const attributes = s.attributes || {};
    const value = colour ? attributes[colour] : undefined;
    const fill = value !== undefined && value !== null ? fills.get(String(value)) || null : null;
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
    const fontSize = cell === "circle" ? unit * NAME_HEIGHT : Math.max(7, Math.min(11, unit * 0.2));
    if (cell === "circle") {
      group.append(sideName(s.name, s.label || [0, -1], radius, unit, fontSize));
    } else {
      const nameY = -unit * (cell === "hex" ? 0.3 : 0.32);
      group.append(svg("text", {class: "space-name", y: nameY.toFixed(1), "text-anchor": "middle", "font-size": fontSize}, s.name));
    }
    const hasExtra = extra && attributes[extra] !== undefined && attributes[extra] !== null;
    const band = markBand(cell, unit, radius, fontSize, hasExtra);
    const written = texts[s.name] ? drawSpaceTexts(texts[s.name], {cell, unit, radius, corner: s.corner, hasExtra}) : null;
    if (written) {
      group.append(...written.nodes);
      if (written.floor !== null) band.bottom = Math.min(band.bottom, written.floor);
      if (written.ceiling !== null) band.top = Math.max(band.top, written.ceiling);
    }
    if (hasExtra) {
      const after = written && written.besideExtra ? " · " + written.besideExtra : "";
      group.append(svg("text", {class: "space-extra", y: (unit * EXTRA_Y).toFixed(1), "text-anchor": "middle", "font-size": fontSize},
        String(attributes[extra]) + after));
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
    // (The view's marks leave out a component the presentation draws there as a token.)
    const here = [...(marks[s.name] || []), ...tokenMarks(tokens[s.name])];
    if (here.length) markLayer.append(drawMarks(here, x, y, band));
  }
  root.append(spaceLayer, markLayer);
  const wrapper = el("figure", {class: "board-figure", "data-board": board.name},
    el("figcaption", {}, el("span", {class: "board-name"}, humanName(board.name)), el("span", {class: "muted small"}, ` · ${counted(board.spaces.length, "space")}`)),
    root);
  if (colour && (fills.size > 1 || declared)) {
    wrapper.append(el("div", {class: "legend", "data-testid": "board-legend"}, el("span", {class: "muted small"}, humanName(colour) + ":"),
      [...fills].map(([value, fillColour]) => el("span", {class: "legend-item", "data-value": value},
        el("span", {class: "swatch", style: `background:${fillColour}`}), names.get(value)))));
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

/**
 * The band of a space where its marks go, relative to its centre: below its name, above its
 * extra attribute (a landmark) when it has one, as wide as the cell; and the tallest mark.
 */
function markBand(cell, unit, radius, fontSize, hasExtra) {
  if (cell === "circle") return {top: -radius, bottom: radius, width: 2 * radius, tallest: unit * 0.24};
  const nameY = -unit * (cell === "hex" ? 0.3 : 0.32);
  const floor = unit * (cell === "hex" ? 0.42 : 0.45);
  return {top: nameY + fontSize * 0.3, bottom: hasExtra ? unit * EXTRA_Y - fontSize * 0.95 : floor,
    width: unit * 0.9, tallest: unit * (cell === "square" ? 0.28 : 0.2)};
}

const EXTRA_Y = 0.36;      // the baseline of a space's extra attribute, in cells below its centre
const MARK_GAP = 1;        // pixels between two marks
const SMALLEST_MARK = 8;   // pixels: a mark is never lower; fewer are shown, then "+N"

/** A mark's text: "green token (sites)" without the variable's name. */
function markText(mark) {
  return String(mark).replace(/\s*\([a-z_]+\)$/, "");
}

function drawMarks(marks, x, y, band) {
  const group = svg("g", {class: "mark-group", transform: `translate(${x.toFixed(1)},${y.toFixed(1)})`});
  // As many tokens as the band holds, then "+N" (the tooltip lists them all), never over the
  // space's name or its landmark. A mark is a label ("P1", "green token (sites)": the variable's
  // name is left out) or a token of the presentation ({text, colour, title}: board_texts.js).
  const items = marks.map((mark) => typeof mark === "object" && mark !== null ? mark :
    {text: markText(mark), colour: null, title: String(mark), mark: String(mark)});
  const ordered = [...items.filter((m) => seatOfMark(m.text) !== null), ...items.filter((m) => seatOfMark(m.text) === null)];
  const room = Math.max(1, Math.floor((band.bottom - band.top + MARK_GAP) / (SMALLEST_MARK + MARK_GAP)));
  const shown = ordered.length > room ? [...ordered.slice(0, room - 1), {text: `+${ordered.length - room + 1}`, colour: null}] : ordered;
  const rows = shown.length;
  const height = Math.max(SMALLEST_MARK, Math.min(band.tallest, (band.bottom - band.top + MARK_GAP) / rows - MARK_GAP));
  const fontSize = height * 0.7;
  const top = (band.top + band.bottom) / 2 - (rows * (height + MARK_GAP) - MARK_GAP) / 2;
  const tooltip = ordered.map((m) => m.title || m.text).join("\n");
  shown.forEach((item, i) => {
    const fits = Math.max(2, Math.floor((band.width - 6) / (fontSize * 0.6)));
    const short = item.text.length > fits ? item.text.slice(0, fits - 1) + "…" : item.text;
    const w = Math.min(band.width, Math.max(height * 1.6, short.length * fontSize * 0.6 + 6));
    const colour = item.colour || markColour(item.text);
    const yy = top + i * (height + MARK_GAP);
    const token = item.component !== undefined;
    group.append(svg("g", {class: "mark" + (seatOfMark(item.text) !== null ? " seat-mark" : "") + (token ? " token" : ""),
      "data-testid": "mark", "data-mark": item.mark || item.title || item.text, "data-component": token ? item.component : null},
      svg("rect", {x: -w / 2, y: yy, width: w, height, rx: height / 2, style: colour ? `fill:${colour}` : null}),
      svg("text", {x: 0, y: yy + height * 0.74, "text-anchor": "middle", "font-size": fontSize.toFixed(1)}, short),
      svg("title", {}, tooltip)));
  });
  return group;
}
