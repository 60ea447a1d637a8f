// What a ruleset's presentation writes on a board's spaces (a `label` and a `corner`, such as a
// toll and the points printed on a space) and the components it draws where they lie (tokens):
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
 * the cell, low (in a circle: its lower third), its corner as a small badge (on a track, just
 * outside the circle on the diagonal free of arrows, names and other badges; on a grid, at the cell's
 * upper right, beside the name; inside the circle, at the top, where the server found no side
 * free). Gives the nodes and the lowest and highest points left for tokens.
 */
export function drawSpaceTexts(texts, place) {
  const {cell, unit, radius, corner} = place;
  const size = unit * LABEL_HEIGHT;
  const nodes = [];
  let floor = null;   // the lowest y the tokens may reach
  let ceiling = null; // the highest
  if (texts.label) {
    const y = cell === "circle" ? radius * 0.5 : unit * 0.2;
    nodes.push(svg("text", {class: "space-label", y: y.toFixed(1), "text-anchor": "middle", "dominant-baseline": "central",
      "font-size": size.toFixed(1)}, texts.label));
    floor = y - size * 0.6;
  }
  if (texts.corner) {
    const width = String(texts.corner).length * size * 0.62 + 4;
    const height = size * 1.3;
    let [cx, cy] = [unit * 0.3, -unit * 0.33];
    const side = corner || [1, 1];
    if (cell === "circle" && side[0] === 0 && side[1] === 0) {   // no side free: inside, at the top
      [cx, cy] = [0, -radius * 0.55];
      ceiling = cy + height / 2;
    } else if (cell === "circle") {   // on the side the server chose, just off the circle
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

/** The tokens a presentation draws on a space, as the marks `drawMarks` draws. */
export function tokenMarks(tokens) {
  return (tokens || []).map((token) => ({
    text: String(token.symbol || token.title || token.label),
    colour: token.colour || null,
    title: token.text || token.label,
    component: token.component,
  }));
}
