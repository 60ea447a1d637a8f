// Small helpers of the page: making elements and SVG nodes, and values as text.

export const $ = (id) => document.getElementById(id);

/** ``n`` and ``word``, in the plural unless ``n`` is 1: "1 player", "3 players". */
export const counted = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
const SVG_NS = "http://www.w3.org/2000/svg";

export function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  setAttrs(node, attrs);
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

export function svg(tag, attrs, ...children) {
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

export function escapeHtml(text) {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

export function seatName(index) {
  return index < 0 ? "chance" : "player " + (index + 1);
}

/** A value of an observation, as text: components by label, players by seat, spaces by name. */
export function show(value, limit = 8) {
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

export function humanName(name) {
  return String(name).replace(/_/g, " ");
}
