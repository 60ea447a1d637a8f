// rulelang web: the page. It talks to `rulelang web` with the protocol of `rulelang serve`
// (docs/protocol.md) over HTTP, one request per POST to /api; it holds no game logic: every
// question, option, board and log line comes from the server.
//
// This module starts the page: the rulesets list, and the wiring of the parts (ES modules,
// loaded by index.html with no build step): dom.js (helpers), api.js (the protocol),
// page.js (the tabs), editor.js, graph.js, boards.js, view.js (a seat's view), play.js,
// replay.js and debug.js (Play's debug panel).

import {$, counted, el} from "./dom.js";
import {api, errorText, hideBanner, showBanner} from "./api.js";
import {app, onTabShown, showTab} from "./page.js";
import {editor} from "./editor.js";
import {graph} from "./graph.js";
import {play} from "./play.js";
import {replay} from "./replay.js";
import {debug} from "./debug.js";

async function loadRulesets() {
  const list = $("ruleset-list");
  try {
    const result = await api.call("rulesets");
    app.rulesets = result.rulesets;
    list.replaceChildren();
    if (!result.rulesets.length) list.append(el("li", {class: "muted"}, "no .rules files under this folder"));
    // Grouped by folder, the folders of the games first.
    const folders = new Map();
    for (const entry of result.rulesets) {
      const cut = entry.path.lastIndexOf("/");
      const folder = cut < 0 ? "." : entry.path.slice(0, cut);
      if (!folders.has(folder)) folders.set(folder, []);
      folders.get(folder).push(entry);
    }
    const order = [...folders.keys()].sort((a, b) => (b === "games") - (a === "games") || a.localeCompare(b));
    for (const folder of order) {
      list.append(el("li", {class: "folder"}, folder + "/"));
      for (const entry of folders.get(folder)) {
        const players = !entry.players ? "does not load" : entry.players[1] !== entry.players[0] ?
          `${entry.players[0]}–${entry.players[1]} players` : counted(entry.players[0], "player");
        const file = entry.path.slice(entry.path.lastIndexOf("/") + 1);
        list.append(el("li", {class: "ruleset" + (entry.players ? "" : " broken"), "data-testid": "ruleset", "data-path": entry.path,
          tabindex: "0", title: entry.path, onclick: () => openRuleset(entry.path),
          onkeydown: (event) => { if (event.key === "Enter") openRuleset(entry.path); }},
        el("span", {class: "ruleset-title"}, entry.title || file),
        el("span", {class: "ruleset-meta"}, file + " · " + players)));
      }
    }
    for (const item of list.querySelectorAll(".ruleset")) item.classList.toggle("active", item.dataset.path === app.path);
  } catch (error) {
    list.replaceChildren(el("li", {class: "error"}, errorText(error)));
  }
}

async function openRuleset(path) {
  if (editor.dirty && !confirm(path === app.path ? `Read ${path} again, discarding your unsaved changes?`
    : `Discard the unsaved changes to ${app.path}?`)) return;
  try {
    const result = await api.call("source", {path});
    app.path = result.path;
    const entry = app.rulesets.find((r) => r.path === result.path);
    app.title = entry && entry.title ? entry.title : result.path;
    $("current-title").textContent = app.title;
    document.title = `${app.title} · rulelang web`;
    for (const item of document.querySelectorAll(".ruleset")) item.classList.toggle("active", item.dataset.path === result.path);
    editor.setText(result.text, result.path);
    play.setupFor = null;
    if (app.tab === "graph") graph.drawIfStale();
    if (app.tab === "play") play.prepareSetup();
    if (app.tab !== "play" && app.tab !== "graph") showTab("editor");
  } catch (error) {
    showBanner(errorText(error));
  }
}

function onSessionLost() {
  showBanner("The server no longer knew this page (it restarted?): games in progress are lost. Start again.");
  play.reset();
  replay.reset();
}

function init() {
  api.onSessionLost = onSessionLost;
  editor.onSaved = loadRulesets;
  play.gameInUse = (handle) => replay.uses(handle);
  play.onReplay = () => replay.fromPlay();
  play.onRender = (view) => debug.refresh(view);
  onTabShown.graph = () => graph.drawIfStale();
  onTabShown.play = () => play.prepareSetup();
  for (const button of document.querySelectorAll(".tab")) button.addEventListener("click", () => showTab(button.dataset.tab));
  $("banner-close").addEventListener("click", hideBanner);
  $("graph-refresh").addEventListener("click", () => graph.draw());
  editor.init();
  play.init();
  replay.init();
  debug.init();
  showTab("editor");
  loadRulesets().then(() => {
    const wanted = new URLSearchParams(location.search).get("open");
    if (wanted) openRuleset(wanted);
  });
}

window.rulelangPage = {api, app, editor, play, replay, graph, debug};
document.addEventListener("DOMContentLoaded", init);
