// The page's state (the ruleset open in the editor, the rulesets listed, the tab shown) and
// its tabs.

export const app = {
  path: null,        // the ruleset open in the editor
  title: null,
  rulesets: [],
  tab: "editor",
};

/** What showing a tab does besides showing it, by tab (app.js fills it: the graph is drawn...). */
export const onTabShown = {};

export function showTab(name) {
  app.tab = name;
  document.body.dataset.tab = name;   // Play and Replay give the rulesets' column to the game (style.css)
  for (const button of document.querySelectorAll(".tab")) {
    const on = button.dataset.tab === name;
    button.classList.toggle("active", on);
    button.setAttribute("aria-selected", on ? "true" : "false");
  }
  for (const pane of document.querySelectorAll(".pane")) pane.hidden = pane.id !== "pane-" + name;
  if (onTabShown[name]) onTabShown[name]();
}
