// The debug panel of Play (beside boardgame.io's): the state as data (the seat's view as a
// collapsible JSON tree; the whole state, every seat's secrets included, on the host's page
// only), time travel (click a log line: the game as it was then, read-only; Undo to there),
// play any seat (the host's page), and one move made by a chosen agent. Its requests beyond
// the protocol's go to POST /api/debug (web_debug.py): agents, rewind, full_state.

import {$, el, seatName} from "./dom.js";
import {api, errorText, showBanner} from "./api.js";
import {drawBoards, drawLog, drawOver, drawTable, logLines} from "./view.js";
import {play} from "./play.js";

const SETTLED = ["yours", "over", "stuck"];   // the phases of Play at which the panel may act

/** A request of the debug panel (POST /api/debug); resolves to its result. */
function debugCall(op, fields = {}) {
  return api.call(op, fields, {route: "/api/debug"});
}

/**
 * A JSON value as a tree: objects and arrays fold (their children made when first opened).
 * ``opened``: the paths of the nodes open (kept up to date), so that a tree drawn again for
 * a new value opens the same nodes.
 */
export function jsonTree(value, key, opened, path = "") {
  const label = key === null ? null : el("span", {class: "json-key"}, String(key));
  if (value === null || typeof value !== "object") {
    return el("div", {class: "json-leaf", "data-testid": "json-leaf", "data-key": key === null ? null : String(key)},
      label, label ? ": " : null, el("span", {class: "json-value json-" + (value === null ? "null" : typeof value),
        "data-testid": "json-value"}, JSON.stringify(value)));
  }
  const entries = Array.isArray(value) ? value.map((item, i) => [i, item]) : Object.entries(value);
  const size = Array.isArray(value) ? `[${entries.length}]` : `{${entries.length}}`;
  const node = el("details", {class: "json-node", "data-testid": "json-node", "data-key": key === null ? null : String(key)},
    el("summary", {}, label, el("span", {class: "json-size"}, " " + size)));
  let filled = false;
  const fill = () => {
    if (node.open) opened.add(path); else opened.delete(path);
    if (filled || !node.open) return;
    filled = true;
    node.append(el("div", {class: "json-children"}, entries.map(([k, v]) => jsonTree(v, k, opened, `${path}/${k}`))));
  };
  node.addEventListener("toggle", fill);
  if (opened.has(path)) { node.open = true; fill(); }
  return node;
}

export const debug = {
  present: null,     // the view of the present (the last that Play drew)
  past: null,        // while travelling: {state, step, steps, view, seq, text}
  showing: "view",   // the inspector shows "view" (the seat's) or "full" (the host's)
  opened: {view: new Set([""]), full: new Set([""])},   // the paths of the tree's open nodes
  travelSeq: 0,
  inspectorSeq: 0,

  init() {
    const panel = $("debug-panel");
    panel.replaceChildren(
      el("summary", {"data-testid": "debug-toggle"}, "Debug panel"),
      el("div", {class: "debug-row"},
        el("label", {}, "Play seat ", el("select", {id: "debug-seat", "data-testid": "debug-seat",
          onchange: () => this.switchSeat(Number($("debug-seat").value))})),
        el("label", {title: "an agent makes the decision you are asked now (undoable)"}, "Agent ",
          el("input", {id: "debug-agent", "data-testid": "debug-agent", list: "debug-agents", value: "random", size: "10"}),
          el("datalist", {id: "debug-agents"})),
        el("button", {type: "button", id: "debug-step", "data-testid": "debug-step", onclick: () => this.stepAgent()},
          "Step one bot move"),
        el("span", {id: "debug-status", class: "muted small", "data-testid": "debug-status"})),
      el("div", {class: "debug-row"},
        el("strong", {}, "State "),
        el("label", {}, el("input", {type: "radio", name: "debug-show", value: "view", checked: true,
          "data-testid": "debug-show-view", onchange: () => this.show("view")}), " the seat's view"),
        el("label", {id: "debug-full-label", title: "every seat's secrets: only on the host's page (the address with ?host= that rulelang web prints)"},
          el("input", {type: "radio", name: "debug-show", value: "full", id: "debug-show-full", "data-testid": "debug-show-full",
            onchange: () => this.show("full")}), " the full state (host)")),
      el("div", {id: "debug-tree", class: "json-tree", "data-testid": "debug-tree"}));
    $("play-log").addEventListener("click", (event) => {
      const line = event.target.closest("li[data-seq]");
      if (line) this.travel(Number(line.dataset.seq), line.textContent);
    });
    api.ready().then(() => this.showHost()).catch(() => {});
    debugCall("agents").then((found) => {
      $("debug-agents").replaceChildren(...found.agents.map((spec) => el("option", {value: spec})));
      $("debug-agent").title = found.syntax;
    }).catch(() => {});
  },

  /** Play drew the present (``view``): the time travel ends, the inspector follows. */
  refresh(view) {
    if (this.past) this.leavePast(false);
    this.present = view;
    $("debug-panel").hidden = false;
    this.showHost();
    const select = $("debug-seat");
    if (select.options.length !== play.game.players) {
      select.replaceChildren(...Array.from({length: play.game.players}, (_, i) => el("option", {value: i}, seatName(i))));
    }
    select.value = String(play.seat);
    this.drawInspector();
  },

  /** What the host's page may do, and a seat's page not. */
  showHost() {
    $("debug-show-full").disabled = !api.host;
    $("debug-seat").disabled = !api.host;
    $("debug-panel").dataset.host = api.host ? "1" : "0";
  },

  phase() {
    return $("pane-play").dataset.phase;
  },

  status(text) {
    $("debug-status").textContent = text;
  },

  // -- the state as data ---------------------------------------------------------

  show(what) {
    this.showing = what;
    this.drawInspector();
  },

  async drawInspector() {
    const tree = $("debug-tree");
    const state = this.past ? this.past.state : play.state;
    const ticket = ++this.inspectorSeq;
    if (this.showing === "full" && api.host && state) {
      let shown;
      try {
        shown = jsonTree(await debugCall("full_state", {state}), "full state", this.opened.full);
      } catch (error) {
        shown = el("div", {class: "error"}, errorText(error));
      }
      if (ticket === this.inspectorSeq) tree.replaceChildren(shown);   // else a later one is drawn
      return;
    }
    const view = this.past ? this.past.view : this.present;
    const seat = seatName(play.seat);
    const title = `the view of ${seat}${this.past ? ` at step ${this.past.step}` : ""}`;
    tree.replaceChildren(view ? jsonTree(view, title, this.opened.view) : "");
  },

  // -- time travel ---------------------------------------------------------------

  /** Shows the game as it was once the log line of event ``seq`` had happened. */
  async travel(seq, text) {
    if (!play.state) return;
    if (!this.past && !SETTLED.includes(this.phase())) {
      this.status("the log takes you back in time once the bots have played (when you are asked, or at the end)");
      return;
    }
    const ticket = ++this.travelSeq;
    try {
      const rewound = await debugCall("rewind", {state: play.state, seq});
      const view = await api.call("view", {state: rewound.state, player: play.seat});
      const steps = await undoSteps();
      if (ticket !== this.travelSeq) { api.call("close", {handle: rewound.state}).catch(() => {}); return; }
      if (this.past) api.call("close", {handle: this.past.state}).catch(() => {});
      else this.phaseBefore = this.phase();
      this.past = {...rewound, view, seq, text, undoSteps: steps};
      $("pane-play").dataset.phase = "past";   // Play takes no choice while the past is shown
      this.drawPast();
    } catch (error) {
      showBanner("Cannot show that moment: " + errorText(error));
    }
  },

  drawPast() {
    const past = this.past;
    const canUndo = this.undoIndex() !== null;
    const bar = el("div", {class: "question time-travel", id: "debug-past", "data-testid": "time-travel"},
      el("div", {class: "prompt"}, `The game after: “${past.text}”`),
      el("div", {class: "muted small"}, `step ${past.step} of ${past.steps}, as ${seatName(play.seat)} saw it; read-only.`),
      el("div", {class: "buttons"},
        el("button", {type: "button", class: "primary", "data-testid": "back-to-present", onclick: () => this.leavePast(true)},
          "Back to the present"),
        el("button", {type: "button", "data-testid": "undo-to-here", disabled: !canUndo,
          title: canUndo ? "take back your choices made after this line" : "none of your choices came after this line",
          onclick: () => this.undoToHere()}, "Undo to here")));
    const old = $("debug-past");
    if (old) old.replaceWith(bar); else $("play-question").before(bar);
    $("play-question").hidden = true;
    $("play-over").hidden = true;
    drawBoards($("play-boards"), play.game.boards, {...past.view, question: null}, null);
    drawTable($("play-table"), past.view, {seat: play.seat, cardOptions: null, onChoose: null, botName: (i) => play.botName(i),
      mine: $("play-mine")});
    const lines = logLines(past.view);
    drawLog($("play-log"), lines, lines.length);
    for (const item of $("play-log").querySelectorAll("li")) item.classList.toggle("travelled", item.dataset.seq === String(past.seq));
    if (past.terminal) $("play-over").replaceChildren(drawOver(past.view, play.seat, play.game.seats));
    this.drawInspector();
  },

  /** Ends the time travel; ``redraw``: draws the present again (Play does it otherwise). */
  leavePast(redraw) {
    const past = this.past;
    if (!past) return;
    this.past = null;
    api.call("close", {handle: past.state}).catch(() => {});
    const bar = $("debug-past");
    if (bar) bar.remove();
    $("pane-play").dataset.phase = this.phaseBefore;
    if (redraw && this.present) {
      play.render(this.present);
      if (this.present.terminal) play.showOver(this.present);
    }
  },

  /** The entry of Play's Undo to go back to: the first of the person's choices made after
   * the line travelled to (null: none). */
  undoIndex() {
    if (!this.past) return null;
    const index = this.past.undoSteps.findIndex((steps) => steps >= this.past.step);
    return index < 0 || !play.undo.slice(index).some((entry) => !entry.applied) ? null : index;
  },

  /** Takes back the person's choices made after the line travelled to, as Undo does one. */
  async undoToHere() {
    const index = this.undoIndex();
    if (index === null) return;
    const entry = play.undo[index];
    const dropped = play.undo.slice(index + 1);
    const current = play.state;
    this.leavePast(false);
    play.dropPendingClone();
    for (const later of dropped) api.call("close", {handle: later.state}).catch(() => {});
    api.call("close", {handle: current}).catch(() => {});
    const takenBack = [entry, ...dropped].filter((e) => !e.applied).length;
    play.undo = play.undo.slice(0, index);
    play.applied = play.applied.filter((a) => a.entry < index);
    $("pane-play").dataset.applied = String(play.applied.length);
    play.state = entry.state;
    play.clicks = Math.max(0, play.clicks - takenBack);
    $("pane-play").dataset.clicks = String(play.clicks);
    play.logSeen = 0;
    this.status(`took back ${takenBack} choice${takenBack === 1 ? "" : "s"}`);
    await play.advance(play.generation);
  },

  // -- play any seat, step one bot move ------------------------------------------

  async switchSeat(seat) {
    if (!api.host || !play.state || seat === play.seat || play.running !== null) return;
    if (this.past) this.leavePast(false);
    play.dropPendingClone();
    play.seat = seat;
    play.logSeen = 0;
    $("play-seat").value = String(seat);
    this.status(`you play ${seatName(seat)} now`);
    await play.advance(play.generation);
  },

  /** The chosen agent makes the decision the person is asked now (as their click would). */
  async stepAgent() {
    if (this.past || this.phase() !== "yours" || play.running !== null) {
      this.status("the agent steps in when you are asked (not while the bots play, nor in the past)");
      return;
    }
    const agent = $("debug-agent").value.trim() || "random";
    try {
      const chosen = await api.call("agent_action", {state: play.state, player: play.seat, agent,
        seed: (play.seed * 7919 + play.clicks) % 2147483647});
      this.status(`${agent} chose “${chosen.action[1]}” for ${seatName(play.seat)}`);
      await play.choose({id: chosen.action[0], label: chosen.action[1]});
    } catch (error) {
      showBanner(`The agent ${agent} could not choose: ` + errorText(error));
    }
  },
};

const stepsOf = new Map();   // a state kept for Undo -> the number of actions behind it

/** The number of actions behind each state kept for Undo. */
async function undoSteps() {
  const steps = [];
  for (const entry of play.undo) {
    if (!stepsOf.has(entry.state)) stepsOf.set(entry.state, (await api.call("status", {state: entry.state}, {quiet: true})).history_length);
    steps.push(stepsOf.get(entry.state));
  }
  return steps;
}
