// What a ruleset's presentation writes on a board's spaces (a `label` and a `corner`, such as a
// cost and the points printed on a space) and the components it draws where they lie (tokens):
// the `spaces` and `tokens` of the view's `presentation` (docs/web.md, "The presentation").

import {svg} from "./dom.js";

const LABEL_HEIGHT = 0.15;   // the font of a space's label and corner, in cells
const CORNER_GAP = 0.02;     // between a circle and the corner badge beside it, in cells (label_places.py)

/**
 * The box of ``width`` x ``height`` beside a circle of ``radius`` at (0, 0), on ``side``: its
 * edge (or corner, on a diagonal) nearest the circle ``gap`` off the circle's edge; and the
 * point where it touches that reach (label_places.py's side_box).
 */
export function sideBox(width, height, side, radius, gap) {
  const [sx, sy] = side;
  const length = Math.hypot(sx, sy) || 1;
  const x = sx / length * (radius + gap);
  const y = sy / length * (radius + gap);
  const left = sx === 0 ? x - width / 2 : sx > 0 ? x : x - width;
  const top = sy === 0 ? y - height / 2 : sy > 0 ? y : y - height;
  return {left, top, right: left + width, bottom: top + height, x, y};
}

/**
 * The texts a presentation writes on one space, as SVG nodes around (0, 0): its label inside
 * the circle, low, its corner as a small badge just outside the circle on the side the server
 * found free of arrows, names and other badges (inside the circle, at the top, where it found
 * none); on a grid, both on one line (gridTexts). Gives the nodes, the lowest and highest
 * points left for tokens, and on a grid with a landmark the text to write after it.
 */
export function drawSpaceTexts(texts, place) {
  const {cell, unit, radius, corner} = place;
  const size = unit * LABEL_HEIGHT;
  if (cell !== "circle") return gridTexts(texts, place, size);
  const nodes = [];
  let floor = null;   // the lowest y the tokens may reach
  let ceiling = null; // the highest
  if (texts.label) {
    const y = radius * 0.5;
    nodes.push(svg("text", {class: "space-label", y: y.toFixed(1), "text-anchor": "middle", "dominant-baseline": "central",
      "font-size": size.toFixed(1)}, texts.label));
    floor = y - size * 0.6;
  }
  if (texts.corner) {
    const width = String(texts.corner).length * size * 0.62 + 4;
    const height = size * 1.3;
    let [cx, cy] = [0, -radius * 0.55];
    const side = corner || [1, 1];
    if (side[0] === 0 && side[1] === 0) {   // no side free: inside, at the top
      ceiling = cy + height / 2;
    } else {   // on the side the server chose, just off the circle
      const box = sideBox(width, height, side, radius, CORNER_GAP * unit);
      [cx, cy] = [(box.left + box.right) / 2, (box.top + box.bottom) / 2];
    }
    nodes.push(svg("g", {class: "space-corner", transform: `translate(${cx.toFixed(1)},${cy.toFixed(1)})`},
      svg("rect", {x: (-width / 2).toFixed(1), y: (-height / 2).toFixed(1), width: width.toFixed(1), height: height.toFixed(1),
        rx: (size * 0.4).toFixed(1)}),
      svg("text", {class: "space-label", "text-anchor": "middle", "dominant-baseline": "central", "font-size": size.toFixed(1)},
        String(texts.corner))));
  }
  return {nodes, floor, ceiling};
}

/** A grid cell's texts: label and corner on one line, low in the cell; on the line of its
 * landmark (the extra attribute written at its bottom) when it has one (``besideExtra``). */
function gridTexts(texts, place, size) {
  const text = [texts.label, texts.corner].filter((part) => part !== undefined && part !== null && part !== "").join(" · ");
  if (!text) return {nodes: [], floor: null, ceiling: null};
  if (place.hasExtra) return {nodes: [], floor: null, ceiling: null, besideExtra: text};
  const y = place.unit * 0.2;
  return {nodes: [svg("text", {class: "space-label", y: y.toFixed(1), "text-anchor": "middle", "dominant-baseline": "central",
    "font-size": size.toFixed(1)}, text)], floor: y - size * 0.6, ceiling: null};
}

/** The tokens a presentation draws on a space, as the marks `drawMarks` draws. */
export function tokenMarks(tokens) {
  return (tokens || []).map((token) => ({
    text: String(token.symbol || token.title || token.label),
    colour: token.colour || null,
    title: token.text || token.label,
    label: token.label,
    component: token.component,
  }));
}
