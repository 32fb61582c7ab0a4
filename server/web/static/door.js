// The browser door's own script, loaded before textual.js (which draws the
// terminal and speaks the WebSocket).  It
// - points textual.js at this server's WebSocket and sets the font size
//   (?fontsize=N, else the saved choice, else 16; 8 to 40);
// - learns how the game's WebSocket closed: 1000 is the player quitting
//   ("Session ended", Play again); anything else is the server going away:
//   it says so, waits for /healthz to answer, then reloads (the cookie
//   brings the player back to their seat); 1013 (over a cap) and 1008 (a
//   misbehaving connection) show the server's reason and a Try again button;
// - starts textual.js once the font is in (it measures a cell when it starts),
//   and gives its terminal the keyboard.
"use strict";
(function () {
  const MIN_FONT = 8;
  const MAX_FONT = 40;
  const DEFAULT_FONT = 16;
  const FONT_KEY = "skyjo.fontSize";
  const ENDED = 1000;
  const POLICY = 1008; // this connection misbehaved: no automatic retry
  const TRY_LATER = 1013; // over a cap (server full, too many from here)
  const FIRST_RETRY_MS = 1000;
  const LAST_RETRY_MS = 15000;

  function clampFont(value) {
    const size = parseInt(value, 10);
    if (!Number.isFinite(size)) return null;
    return Math.min(MAX_FONT, Math.max(MIN_FONT, size));
  }

  function savedFont() {
    try {
      return clampFont(window.localStorage.getItem(FONT_KEY));
    } catch (error) {
      return null; // storage refused (private mode, policy)
    }
  }

  function fontSize() {
    const asked = clampFont(new URLSearchParams(window.location.search).get("fontsize"));
    return asked || savedFont() || DEFAULT_FONT;
  }

  function chooseFont(size) {
    try {
      window.localStorage.setItem(FONT_KEY, String(clampFont(size)));
    } catch (error) {
      // not saved: this page still gets it below
    }
    const url = new URL(window.location.href);
    url.searchParams.delete("fontsize");
    if (savedFont() === null) url.searchParams.set("fontsize", String(clampFont(size)));
    window.location.replace(url.toString());
  }

  function socketUrl() {
    const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
    return scheme + "//" + window.location.host + "/ws";
  }

  // -- how the game's connection ended -----------------------------------------
  let retryDelay = FIRST_RETRY_MS;
  let watching = false;

  function serverWentAway() {
    if (watching) return;
    watching = true;
    document.body.classList.add("door-lost");
    waitForServer();
  }

  async function waitForServer() {
    try {
      const reply = await fetch("/healthz", { cache: "no-store" });
      if (reply.ok) {
        window.location.reload();
        return;
      }
    } catch (error) {
      // still away
    }
    window.setTimeout(waitForServer, retryDelay);
    retryDelay = Math.min(LAST_RETRY_MS, retryDelay * 2);
  }

  function refused(reason) {
    const text = document.getElementById("door-refused-reason");
    if (text) text.textContent = reason || "The server cannot take this connection now.";
    document.body.classList.add("door-refused");
    const again = document.getElementById("door-try-again");
    if (again) again.focus();
  }

  function sessionEnded() {
    document.body.classList.add("door-ended");
    const again = document.getElementById("door-play-again");
    if (again) again.focus();
  }

  const NativeWebSocket = window.WebSocket;
  class DoorWebSocket extends NativeWebSocket {
    constructor(url, protocols) {
      super(url, protocols);
      // textual.js sends sizes (and keys) as soon as the font changes a cell,
      // which can be before the socket is open: keep them until it is.
      this.early = [];
      this.addEventListener("open", () => {
        const early = this.early;
        this.early = null;
        for (const data of early) super.send(data);
      });
      this.addEventListener("close", function (event) {
        if (event.code === ENDED) sessionEnded();
        else if (event.code === TRY_LATER || event.code === POLICY) refused(event.reason);
        else serverWentAway();
      });
    }

    send(data) {
      if (this.early !== null && this.readyState === NativeWebSocket.CONNECTING) {
        this.early.push(data);
      } else if (this.readyState === NativeWebSocket.OPEN) {
        super.send(data);
      } // closed: a late blur or resize has nobody to go to
    }
  }
  window.WebSocket = DoorWebSocket;

  // When the app turns focus reports on, xterm.js reports the state it is in:
  // an unfocused terminal tells the app "focus out" before its first screen,
  // and Textual then focuses nothing (keys typed go nowhere).  The page is the
  // game: its terminal has the keyboard from the start.
  function focusTerminal() {
    const input = document.querySelector(".textual-terminal .xterm-helper-textarea");
    if (input) input.focus();
  }

  // -- the page -----------------------------------------------------------------
  document.addEventListener("DOMContentLoaded", function () {
    // textual.js would fetch a "?ping=" address and wait for a "?delay" click.
    const url = new URL(window.location.href);
    if (url.searchParams.has("ping") || url.searchParams.has("delay")) {
      url.searchParams.delete("ping");
      url.searchParams.delete("delay");
      window.history.replaceState(null, "", url.toString());
    }
    const size = fontSize();
    for (const element of document.querySelectorAll(".textual-terminal")) {
      element.dataset.sessionWebsocketUrl = socketUrl();
      element.dataset.fontSize = String(size);
    }
    for (const id of ["door-play-again", "door-try-again"]) {
      document.getElementById(id).addEventListener("click", function () {
        window.location.reload();
      });
    }
    document.getElementById("door-font-smaller").addEventListener("click", function () {
      chooseFont(size - 2);
    });
    document.getElementById("door-font-larger").addEventListener("click", function () {
      chooseFont(size + 2);
    });
    // textual.js measures a cell as soon as the page has loaded: with the font
    // not ready yet, every cell would be mis-sized.  Start it once the font is in.
    const startTerminal = window.onload;
    if (typeof startTerminal === "function") {
      window.onload = null;
      window.addEventListener("load", function (event) {
        const ready = document.fonts
          ? document.fonts.load(size + "px 'Roboto Mono'").catch(function () {})
          : Promise.resolve();
        ready.then(function () {
          startTerminal.call(window, event);
          focusTerminal();
        });
      });
    }
  });
})();
