// Replay: step through a finished or saved game with the `replay` op.

import {$, el, seatName} from "./dom.js";
import {api, errorText, showBanner} from "./api.js";
import {app, showTab} from "./page.js";
import {loadEditorGame} from "./editor.js";
import {drawBoards, drawLog, drawOver, drawTable, logLines} from "./view.js";
import {play} from "./play.js";

export const replay = {
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
    drawTable($("replay-table"), view, {seat: this.seat, cardOptions: null, onChoose: null, botName: null, mine: $("replay-mine")});
    drawLog($("replay-log"), logLines(view), Infinity);
  },
};
