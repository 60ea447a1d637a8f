// A seat's view: the table (globals, shared zones, each player), the log, the boards with
// their marks, and the results of a game that is over.

import {el, humanName, seatName, show} from "./dom.js";
import {SEAT_COLOURS, drawBoard} from "./boards.js";

/**
 * THE PLACE WHERE THE PAGE READS THE RULESET'S PRESENTATION: the `presentation` of a `view`
 * reply (docs/web.md, "The presentation"), the ruleset's `present` block rendered for the
 * seat. `cards`: each card's face by component id; `spaces`: the texts written on each space
 * ({board: {space: {label, corner}}}); `tokens`: the components drawn on the spaces where
 * they lie ({board: {space: [token]}}); `boards`: how each board's spaces are coloured
 * ({board: {attribute, values: {value: {colour, name}}}}). Empty tables without one: the
 * page looks as before.
 */
export function presentationOf(view) {
  const given = (view && view.presentation) || {};
  return {cards: given.cards || {}, spaces: given.spaces || {}, tokens: given.tokens || {},
    boards: given.boards || {}, shown: given.declared ? given.shown_variables || null : null};
}

/** Whether a value (not a zone) of ``owner`` ("global", "player") is shown to players: every
 * one, unless the presentation names those shown (settings and sort keys are then left out). */
function isShown(presentation, owner, name) {
  return !presentation.shown || !presentation.shown[owner] || presentation.shown[owner].includes(name);
}

/** The ids (as strings) of the components the presentation draws on a board. */
function tokenIds(presentation) {
  const ids = new Set();
  for (const spaces of Object.values(presentation.tokens)) {
    for (const tokens of Object.values(spaces)) for (const token of tokens) ids.add(String(token.component));
  }
  return ids;
}

function isComponent(value) {
  return value && typeof value === "object" && !Array.isArray(value) && "component" in value && "label" in value;
}

function isZoneList(value) {
  return Array.isArray(value) && value.every(isComponent);
}

function isHiddenZone(value) {
  return value && typeof value === "object" && !Array.isArray(value) && Object.keys(value).length === 1 && "count" in value;
}

/** A card's face as the presentation lays it out (title and corner on top, body under
 * them, in its colour), or its label. */
function cardFace(card, face) {
  if (!face || !(face.title || face.body || face.corner || face.symbol)) return [el("div", {class: "card-label"}, card.label)];
  const top = el("div", {class: "card-top"},
    face.symbol ? el("span", {class: "card-symbol"}, face.symbol) : null,
    el("span", {class: "card-label card-title", "data-testid": "card-title"}, face.title || card.label),
    face.corner ? el("span", {class: "card-corner", "data-testid": "card-corner"}, face.corner) : null);
  return [top, face.body ? el("div", {class: "card-body", "data-testid": "card-body"}, face.body) : null];
}

/** A card (a component seen face up): its face (or label), the tokens on it, its variables that are set. */
function drawCard(card, context) {
  const option = context.cardOptions ? context.cardOptions.get(card.component) : null;
  const face = context.faces ? context.faces[String(card.component)] : null;
  const node = el("div", {class: "card" + (option ? " option" : "") + (face && face.title ? " face" : ""), "data-testid": "card",
    "data-component": card.component, title: option ? "click to choose: " + option.label : face ? face.text || card.label : null,
    tabindex: option ? "0" : null, style: face && face.colour ? `--card-colour:${face.colour}` : null},
  cardFace(card, face));
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
  if (value.length && context.onBoard && value.every((card) => context.onBoard.has(String(card.component)))) {
    // Its components are drawn on the board where they lie: not listed again.
    box.append(el("div", {class: "muted small", "data-testid": "zone-on-board"}, "drawn on the board"));
    return box;
  }
  const cards = el("div", {class: "cards"});
  if (!value.length) cards.append(el("span", {class: "muted small"}, "empty"));
  // Alike cards that are not options (8 alike tokens of player 1) are one card "× 8".
  const groups = new Map();
  for (const card of value) {
    const option = context.cardOptions && context.cardOptions.has(card.component);
    const face = context.faces ? context.faces[String(card.component)] : null;
    const key = option ? "#" + card.component : JSON.stringify([card.label, card.tokens || null, card.vars || null, face || null]);
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

export function drawTable(target, view, context) {
  const obs = view.observation;
  target.replaceChildren();
  if (context.mine) context.mine.replaceChildren();
  const presentation = presentationOf(view);
  context = {...context, faces: presentation.cards, onBoard: tokenIds(presentation)};
  const seats = view.seats || obs.players.map((_, i) => seatName(i));
  // Shared: globals and shared zones.
  const shared = el("section", {class: "panel shared", "data-testid": "shared"}, el("h3", {}, "Table"));
  const globals = Object.entries(obs.globals || {}).filter(([, v]) => !(Array.isArray(v) && v.length > 20 && v.every((x) => x && x.space)));
  const sharedParts = drawEntries([...globals.filter(([name]) => isShown(presentation, "global", name)),
    ...Object.entries(obs.zones || {})], context);
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
    const entries = Object.entries(obs.players[index] || {});
    panel.append(...drawEntries(entries.filter(([name, value]) => isZoneList(value) || isHiddenZone(value) ||
      isShown(presentation, "player", name)), context));
    // The seat's own holdings go beside the question (context.mine), the others' below.
    (mine && context.mine ? context.mine : players).append(panel);
  }
  target.append(players);
}

/** The lines of a view's log: its narration (a line for each event the seat sees, headings
 * for phases and turns) when its state records events, else the ruleset's log lines. */
export function logLines(view) {
  if (view.narration) return view.narration;
  return (view.observation.log || []).map((text) => ({text: String(text)}));
}

export function drawLog(target, lines, freshFrom) {
  // Newest first in the list, shown at the bottom (the list is laid out bottom up, so that it
  // starts scrolled to its newest line without the page measuring it).
  const items = lines.map((line, i) => el("li", {
    class: [i >= freshFrom ? "fresh" : "", line.heading ? `heading heading-${line.heading}` : ""].join(" ").trim(),
    "data-testid": "log-line", "data-seq": line.seq}, line.text));
  items.reverse();
  target.replaceChildren(...items);
  if (!lines.length) target.append(el("li", {class: "muted"}, "nothing yet"));
}

/** The boards of a game with a view's marks; options with a space become clickable there. */
export function drawBoards(target, boards, view, onChoose, testid) {
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
  const presentation = presentationOf(view);
  for (const board of boards) {
    target.append(drawBoard(board, {marks: (view.marks || {})[board.name] || {}, clickable: spaceOptions.get(board.name),
      onChoose, testid, texts: presentation.spaces[board.name], tokens: presentation.tokens[board.name],
      colours: presentation.boards[board.name]}));
  }
}

export function drawOver(view, seat, seats) {
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
