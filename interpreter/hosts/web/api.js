// The protocol over HTTP: one request per POST to /api in the page's session (the debug
// panel's to /api/debug), its errors, and the banner that shows them. A page opened with
// ?host=TOKEN opens its session as the host's (web.py).

import {$} from "./dom.js";

export class ProtocolError extends Error {
  constructor(error) {
    super(error.message || "error");
    this.code = error.code;
    this.location = error.location;
    this.hint = error.hint;
    this.diagnostics = error.diagnostics;
  }
}

export const api = {
  session: null,
  host: false,       // whether the server took this page's session as the host's
  opening: null,
  nextId: 1,
  inFlight: 0,
  onSessionLost: () => {},   // what the page does when the server forgot its session (app.js sets it)
  async newSession() {
    const token = new URLSearchParams(location.search).get("host");
    const open = (asked) => fetch("/api/session", {method: "POST", headers: {"Content-Type": "application/json"},
      body: JSON.stringify(asked)});
    let response = await open(token === null ? {} : {host: token});
    if (token !== null && response.status === 403) {   // a token of another run of the server
      showBanner("This address's host token is not this server's (restarted?): the page is a seat's page, " +
        "without the full state. Open the address that rulelang web printed last.", "info");
      response = await open({});
    }
    if (!response.ok) throw new Error("cannot open a session: HTTP " + response.status);
    const opened = await response.json();
    this.session = opened.session;
    this.host = opened.host === true;
  },
  /** Resolves once the page has a session. */
  async ready() {
    if (!this.session) {
      // One new session however many requests wait for it.
      this.opening = this.opening || this.newSession().finally(() => { this.opening = null; });
      await this.opening;
    }
  },
  /**
   * One request; resolves to its result, rejects with a ProtocolError. A ``quiet`` request
   * (made ahead of need, such as the copy for Undo) does not show the page as working;
   * ``route``: /api/debug for the debug panel's ops.
   */
  async call(op, fields = {}, {quiet = false, route = "/api"} = {}) {
    await this.ready();
    const body = JSON.stringify({id: this.nextId++, op, ...fields});
    const count = quiet ? 0 : 1;
    this.busy(+count);
    try {
      const response = await fetch(route, {
        method: "POST",
        headers: {"Content-Type": "application/json", "X-Rulelang-Session": this.session},
        body,
      });
      let reply;
      try {
        reply = await response.json();
      } catch (_) {
        throw new ProtocolError({code: "HTTP" + response.status, message: `the server answered HTTP ${response.status}`});
      }
      if (response.status === 403 && reply && reply.error && reply.error.code === "P009") {
        // The server forgot this page (restarted, or too many pages): start again.
        this.session = null;
        this.onSessionLost();
      }
      if (!reply.ok) throw new ProtocolError(reply.error || {message: "no reply"});
      return reply.result;
    } finally {
      this.busy(-count);
    }
  },
  busy(delta) {
    this.inFlight += delta;
    document.body.dataset.busy = this.inFlight > 0 ? "1" : "0";
  },
};

export function showBanner(text, kind = "error") {
  $("banner-text").textContent = text;
  $("banner").className = kind;
  $("banner").hidden = false;
}

export function hideBanner() {
  $("banner").hidden = true;
}

export function errorText(error) {
  if (!(error instanceof ProtocolError)) return String(error && error.message ? error.message : error);
  let text = (error.code ? error.code + ": " : "") + error.message;
  if (error.location) text += ` (at ${error.location})`;
  if (error.hint) text += ` — ${error.hint}`;
  if (error.diagnostics && error.diagnostics.length > 1) text += ` (and ${error.diagnostics.length - 1} more problems: see the editor)`;
  return text;
}
