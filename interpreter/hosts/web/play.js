// Play: one seat for the person, bots for the others; the question the person is asked. A
// question with one option is answered for the person (unless the setting is off), noted in the
// log, and taken back by Undo together with the person's own choice before it.

import {$, el, seatName} from "./dom.js";
import {api, errorText, hideBanner, showBanner} from "./api.js";
import {app} from "./page.js";
import {loadEditorGame} from "./editor.js";
import {drawBoards, drawLog, drawOver, drawTable, logLines} from "./view.js";

export const play = {
  game: null,        // {handle, path, players, seats, boards, title}
  state: null,
  seat: 0,
  bots: ["random"],
  seed: 1,
  undo: [],          // before each of the person's choices: {state: a clone, applied: made for them}
  applied: [],       // the choices made for the person: {at: log lines then, entry: its undo index, line}
  pendingClone: null, // the clone (a promise) of the state the person is asked about now
  clicks: 0,
  botMoves: 0,
  running: null,     // the generation whose loop (bots, or the person's choice) is running
  setupFor: null,
  logSeen: 0,
  lastView: null,
  generation: 0,     // bumps when a game is started or dropped: stale loops stop
  gameInUse: () => false,  // whether Replay still uses a game's handle (app.js sets it)
  onReplay: () => {},      // "Replay this game" (app.js sets it)
  onRender: () => {},      // after each drawing of the present (app.js sets it: the debug panel)

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
    this.applied = [];
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
      const started = await api.call("new_game", {game: loaded.game, seed, events: true});
      if (generation !== this.generation) return;
      const old = this.game;
      this.game = {handle: loaded.game, players: loaded.players, seats: loaded.seats, boards, title: loaded.title, path: app.path};
      if (old && !this.gameInUse(old.handle)) api.call("close", {handle: old.handle}).catch(() => {});
      this.dropPendingClone();
      this.state = started.state;
      this.seat = seat;
      this.bots = bots.length ? bots : ["random"];
      this.seed = seed;
      this.undo = [];
      this.applied = [];
      $("pane-play").dataset.applied = "0";
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
          } else if (this.onlyOption(view)) {
            const applied = await this.applyForYou(view, this.onlyOption(view));
            if (generation !== this.generation) return;
            toAct = applied.to_act;
            terminal = applied.terminal;
            continue;
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
      this.remember(clone.state, false);
      this.clicks++;
      $("pane-play").dataset.clicks = String(this.clicks);
      this.logSeen = this.lastView ? logLines(this.lastView).length : 0;
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

  /** The one option of the question the person is asked now, when the page applies it for them. */
  onlyOption(view) {
    const question = view.question;
    if (!$("play-auto").checked || !question || question.options.length !== 1) return null;
    return (question.players || view.observation.to_act || []).includes(this.seat) ? question.options[0] : null;
  },

  /** Applies ``option``, the only one, for the person; noted in the log, undoable. */
  async applyForYou(view, option) {
    const clone = await api.call("clone", {state: this.state});
    let applied;
    try {
      applied = await api.call("apply", {state: this.state, action: option.id, player: this.seat});
    } catch (error) {
      api.call("close", {handle: clone.state}).catch(() => {});
      throw error;
    }
    const text = `${seatName(this.seat)} (you): ${view.question.prompt || "choose"}: ${option.label} (the only option, applied for you)`;
    this.applied.push({at: this.shownLog(view).length, entry: this.undo.length,
      line: {text, toString: () => text}});   // a log line as text, or as {text} where the log is narrated
    this.remember(clone.state, true);
    $("pane-play").dataset.applied = String(this.applied.length);
    return applied;
  },

  /** Keeps the state before a choice for Undo (at most 300: the oldest is closed). */
  remember(state, applied) {
    this.undo.push({state, applied});
    if (this.undo.length > 300) {
      api.call("close", {handle: this.undo.shift().state}).catch(() => {});
      this.applied = this.applied.filter((a) => a.entry > 0).map((a) => ({...a, entry: a.entry - 1}));
    }
  },

  /** Whether a choice of the person's own lies behind (what was applied for them goes with it). */
  canUndo() {
    return this.undo.some((entry) => !entry.applied);
  },

  async undoLast() {
    if (this.running !== null || !this.canUndo()) return;
    const generation = this.generation;
    let entry = this.undo.pop();
    while (entry.applied) {   // the choices applied for the person since their own: taken back with it
      api.call("close", {handle: entry.state}).catch(() => {});
      entry = this.undo.pop();
    }
    const previous = entry.state;
    this.applied = this.applied.filter((a) => a.entry < this.undo.length);
    $("pane-play").dataset.applied = String(this.applied.length);
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
    $("play-undo").disabled = !this.canUndo();
    const context = {seat: this.seat, cardOptions: null, onChoose: (option) => this.choose(option),
      botName: (i) => this.botName(i), mine: $("play-mine")};
    const question = view.question && !botsThinking && (view.question.players || obs.to_act || []).includes(this.seat) ? view.question : null;
    if (question) {
      context.cardOptions = new Map();
      for (const option of question.options) if (option.component !== null && option.component !== undefined) context.cardOptions.set(option.component, option);
    }
    drawQuestion($("play-question"), view, question, this, botsThinking);
    drawBoards($("play-boards"), this.game.boards, question ? view : {...view, question: null}, question ? (option) => this.choose(option) : null);
    drawTable($("play-table"), view, context);
    drawLog($("play-log"), ...this.logWithApplied(this.shownLog(view)));
    this.onRender(view);
  },

  /** The lines of the log the page shows for ``view`` (the notes of applied choices are placed among them). */
  shownLog(view) {
    return logLines(view);
  },

  /** The log's lines with the notes of the choices applied for the person, each where it was
   * made; and the index of the first line that is new since the person's last choice. */
  logWithApplied(log) {
    const lines = [];
    let fresh = null;
    for (let i = 0; i <= log.length; i++) {
      if (i === this.logSeen) fresh = lines.length;
      for (const note of this.applied) if (Math.min(note.at, log.length) === i) lines.push(note.line);
      if (i < log.length) lines.push(log[i]);
    }
    return [lines, fresh === null ? lines.length : fresh];
  },

  showOver(view) {
    const box = $("play-over");
    box.hidden = false;
    box.replaceChildren(drawOver(view, this.seat, this.game.seats),
      el("div", {class: "buttons"},
        el("button", {type: "button", class: "primary", "data-testid": "replay-this", onclick: () => this.onReplay()}, "Replay this game"),
        el("button", {type: "button", "data-testid": "save-this", onclick: () => this.download()}, "Save game"),
        el("button", {type: "button", "data-testid": "play-again", onclick: () => this.start()}, "New game")));
    $("play-undo").disabled = !this.canUndo();
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
