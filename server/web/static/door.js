// The browser door's own script, loaded before textual.js (which draws the
// terminal and speaks the WebSocket).  It
// - points textual.js at this server's WebSocket and sets the font size
//   (?fontsize=N, else the saved choice, else the largest up to 16 that gives
//   the app its 60x18 cells in this window; 8 to 40); A- and A+ change it in
//   place;
// - learns how the game's WebSocket closed: 1000 is the player quitting
//   ("Session ended", Play again); anything else is the server going away:
//   it says so, waits for /healthz to answer, then reloads (the cookie
//   brings the player back to their seat); 1013 (over a cap) and 1008 (a
//   misbehaving connection) show the server's reason and a Try again button;
// - starts textual.js once the font is in (it measures a cell when it starts),
//   and gives its terminal the keyboard;
// - on a touch screen, raises the on-screen keyboard only while the app says a
//   text field has the focus (its OSC 7717), so taps on the cards never do, and
//   gives the app the keys of a tablet's own keyboard meanwhile;
// - turns a finger's vertical swipe into the mouse wheel's scrolling;
// - opens the table of a link /t/CODE, keeps the screen awake while the page is
//   seen, and shows the app's title (the turn notice) as the tab's, vibrating
//   on the app's bell while the tab is hidden.
"use strict";
(function () {
  const MIN_FONT = 8;
  const MAX_FONT = 40;
  const DEFAULT_FONT = 16;
  const FONT_KEY = "skyjo.fontSize";
  // The app's smallest screen (skyjo_tui.layout.MENU_MIN_SIZE): the font chosen for a
  // window gives at least this many cells, so a phone opens on the game, not on
  // "the terminal is too small".
  const APP_COLUMNS = 60;
  const APP_ROWS = 18;
  const KEYBOARD_OSC = 7717; // skyjo_tui.webpage: "text" or "keys"
  const TABLE_PATH = /^\/t\/([A-Za-z]{6})$/;
  const ENDED = 1000;
  const POLICY = 1008; // this connection misbehaved: no automatic retry
  const TRY_LATER = 1013; // over a cap (server full, too many from here)
  const FIRST_RETRY_MS = 1000;
  const LAST_RETRY_MS = 15000;
  const TURN_BUZZ_MS = [200, 100, 200];

  // A phone or a tablet: its keyboard is on the screen, and comes up for a focused
  // text area.
  const touchScreen = window.matchMedia("(hover: none) and (pointer: coarse)").matches;

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

  /** The size the player asked for (?fontsize=N, else saved), or null: chosen here. */
  function askedFont() {
    return clampFont(new URLSearchParams(window.location.search).get("fontsize")) || savedFont();
  }

  /** A cell of Roboto Mono at ``size`` px as xterm.js lays it out: its width rounded
   * down and its height up to device pixels (the renderers' own rounding). */
  function cellAt(size) {
    const probe = document.createElement("span");
    probe.style.cssText =
      "position:absolute;visibility:hidden;white-space:pre;line-height:normal;" +
      "font-family:'Roboto Mono',monospace;font-size:" + size + "px";
    probe.textContent = "W".repeat(32);
    document.body.appendChild(probe);
    const box = probe.getBoundingClientRect();
    probe.remove();
    const ratio = window.devicePixelRatio || 1;
    return {
      width: Math.floor((box.width / 32) * ratio) / ratio,
      height: Math.ceil(box.height * ratio) / ratio,
    };
  }

  /** The largest font up to 16 px that gives the app its cells in ``element``. */
  function fittingFont(element) {
    const width = element.clientWidth;
    const height = element.clientHeight;
    for (let size = DEFAULT_FONT; size > MIN_FONT; size--) {
      const cell = cellAt(size);
      if (width / cell.width >= APP_COLUMNS && height / cell.height >= APP_ROWS) return size;
    }
    return MIN_FONT;
  }

  function socketUrl() {
    const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
    return scheme + "//" + window.location.host + "/ws";
  }

  /** The code of the table whose link opened the page, or null. */
  function linkedTable() {
    const match = TABLE_PATH.exec(window.location.pathname);
    return match ? match[1].toUpperCase() : null;
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

  // xterm.js reports the text area's focus to the app (CSI I, CSI O) once the app
  // asks; Textual takes "focus out" as leaving the app and focuses nothing until a
  // key or a click.  The page is the game, and on a touch screen it puts the text
  // area's focus away between texts: the app is never told it lost the player.
  const FOCUS_REPORTS = new Set([JSON.stringify(["stdin", "\x1b[I"]), JSON.stringify(["stdin", "\x1b[O"])]);

  const NativeWebSocket = window.WebSocket;
  class DoorWebSocket extends NativeWebSocket {
    constructor(url, protocols) {
      const table = linkedTable();
      // On a touch screen the app's prompts say what to tap (SKYJO_TOUCH).
      const touch = touchScreen ? "&touch=1" : "";
      super((table ? url + "&table=" + table : url) + touch, protocols);
      // textual.js sends sizes (and keys) as soon as the font changes a cell,
      // which can be before the socket is open: keep them until it is.
      this.early = [];
      this.addEventListener("open", () => {
        const early = this.early;
        this.early = null;
        for (const data of early) super.send(data);
        // The app has the table: a reload (or a reconnection) comes back to the player's
        // own place, not to the link's.
        if (table) window.history.replaceState(null, "", "/" + window.location.search);
        keepAwake();
      });
      this.addEventListener("close", function (event) {
        letSleep();
        if (event.code === ENDED) sessionEnded();
        else if (event.code === TRY_LATER || event.code === POLICY) refused(event.reason);
        else serverWentAway();
      });
    }

    send(data) {
      if (FOCUS_REPORTS.has(data)) return;
      if (this.early !== null && this.readyState === NativeWebSocket.CONNECTING) {
        this.early.push(data);
      } else if (this.readyState === NativeWebSocket.OPEN) {
        super.send(data);
      } // closed: a late blur or resize has nobody to go to
    }
  }
  window.WebSocket = DoorWebSocket;

  // Chromium's device emulation at a pixel ratio above 1 gives ResizeObserver a
  // devicePixelContentBoxSize in CSS pixels: xterm.js sized its canvas from it and
  // drew the top-left part of the terminal, magnified.  An entry whose device
  // pixels disagree with its CSS size times the ratio goes without them, and
  // xterm.js computes them from the ratio itself; a real screen's agree.
  const NativeResizeObserver = window.ResizeObserver;
  if (NativeResizeObserver) {
    window.ResizeObserver = class DoorResizeObserver extends NativeResizeObserver {
      constructor(callback) {
        super(function (entries, observer) {
          callback(entries.map(trustedDevicePixels), observer);
        });
      }
    };
  }

  function trustedDevicePixels(entry) {
    const device = entry.devicePixelContentBoxSize && entry.devicePixelContentBoxSize[0];
    if (!device) return entry;
    const ratio = window.devicePixelRatio || 1;
    const width = entry.contentRect.width * ratio;
    const height = entry.contentRect.height * ratio;
    if (Math.abs(device.inlineSize - width) <= 1.5 && Math.abs(device.blockSize - height) <= 1.5) {
      return entry;
    }
    return {
      target: entry.target,
      contentRect: entry.contentRect,
      contentBoxSize: entry.contentBoxSize,
      borderBoxSize: entry.borderBoxSize,
    };
  }

  // -- the screen kept awake while the page is seen ------------------------------
  let wakeLock = null;
  let awake = false;

  async function keepAwake() {
    awake = true;
    if (wakeLock !== null || !("wakeLock" in navigator) || document.hidden) return;
    try {
      wakeLock = await navigator.wakeLock.request("screen");
      wakeLock.addEventListener("release", function () {
        wakeLock = null;
      });
    } catch (error) {
      wakeLock = null; // refused (battery saver, policy): the screen sleeps as it likes
    }
  }

  function letSleep() {
    awake = false;
    if (wakeLock !== null) wakeLock.release().catch(function () {});
  }

  document.addEventListener("visibilitychange", function () {
    // A hidden page loses its lock; seen again, it asks anew.
    if (awake && !document.hidden) keepAwake();
  });

  // -- the terminal of textual.js ---------------------------------------------------
  // textual.js keeps its xterm.js Terminal to itself: it is caught as textual.js
  // sets it up (its terminal object gets "terminal", then "fitAddon"), for the
  // parser's OSC handlers, the bell, the title and the font.
  function catchTerminal(start) {
    let caught = null;
    Object.defineProperty(Object.prototype, "fitAddon", {
      configurable: true,
      set(value) {
        Object.defineProperty(this, "fitAddon", {
          value,
          writable: true,
          configurable: true,
          enumerable: true,
        });
        if (caught === null && this.terminal && this.terminal.parser) caught = this.terminal;
      },
    });
    try {
      start();
    } finally {
      delete Object.prototype.fitAddon;
    }
    return caught;
  }

  function fit() {
    if (typeof window.onresize === "function") window.onresize(new Event("resize"));
  }

  /** The app's notices as a page's: its title, and its bell as a vibration while
   * the tab is hidden (a phone in a pocket). */
  function followTheApp(terminal) {
    terminal.onTitleChange(function (title) {
      document.title = title || "Skyjo";
    });
    terminal.onBell(function () {
      if (document.hidden && navigator.vibrate) navigator.vibrate(TURN_BUZZ_MS);
    });
  }

  // -- the on-screen keyboard: only to type --------------------------------------
  /** Whether an on-screen keyboard covers part of the page now (it shrinks what is seen). */
  function keyboardShown() {
    const seen = window.visualViewport;
    return Boolean(seen) && seen.height < window.innerHeight * 0.85;
  }

  // On a touch screen the text area is xterm.js's way in for the keyboard: focused,
  // it raises the on-screen keyboard.  While the app has no text field focused,
  // the text area takes no focus (xterm.js focuses it on every tap) and says it
  // wants no keyboard; once a field has the focus, it is focused for typing.
  function keyboardOnlyToType(terminal) {
    const textarea = terminal.textarea;
    if (!textarea) return;
    const focusIt = textarea.focus.bind(textarea);
    let typing = false;
    function toTap() {
      typing = false;
      textarea.setAttribute("inputmode", "none");
      textarea.readOnly = true;
      document.body.classList.remove("door-typing");
      if (document.activeElement === textarea) textarea.blur();
    }
    function toType() {
      typing = true;
      textarea.setAttribute("inputmode", "text");
      textarea.readOnly = false;
      document.body.classList.add("door-typing");
      focusIt({ preventScroll: true });
    }
    textarea.focus = function (options) {
      if (typing) focusIt(options);
    };
    // A phone raises its keyboard for a focus given during a tap, not for one given
    // later (the app's word comes after the tap that focused its field), nor for a tap
    // on a text area focused already: while typing, each tap gives the focus anew.
    terminal.element.addEventListener(
      "touchend",
      function () {
        if (!typing || keyboardShown()) return;
        textarea.blur();
        focusIt({ preventScroll: true });
      },
      { passive: true },
    );
    keysOfAKeyboard(terminal, function () {
      return !typing;
    });
    terminal.parser.registerOscHandler(KEYBOARD_OSC, function (data) {
      if (data === "text") toType();
      else if (data === "keys") toTap();
      return true;
    });
    toTap();
  }

  // -- a tablet's own keyboard: the game's keys ----------------------------------------
  // An iPad in a keyboard case is a touch screen too: with the text area put away,
  // its keys reach the document, not xterm.js.  The on-screen keyboard is down then, so
  // a key there is a hardware one: it goes to the app as xterm.js would have sent it
  // (the game's shortcuts work outside text fields).  Keys with Meta or Alt (the
  // browser's and the system's: Cmd+R, Cmd+Tab, Option's accents) stay theirs.
  const KEY_INPUT = {
    Enter: "\r",
    Escape: "\x1b",
    Tab: "\t",
    Backspace: "\x7f",
    Insert: "\x1b[2~",
    Delete: "\x1b[3~",
    PageUp: "\x1b[5~",
    PageDown: "\x1b[6~",
    F1: "\x1bOP",
    F2: "\x1bOQ",
    F3: "\x1bOR",
    F4: "\x1bOS",
    F5: "\x1b[15~",
    F6: "\x1b[17~",
    F7: "\x1b[18~",
    F8: "\x1b[19~",
    F9: "\x1b[20~",
    F10: "\x1b[21~",
    F11: "\x1b[23~",
    F12: "\x1b[24~",
  };
  // The keys whose sequence ends in a letter (xterm's "CSI 1 ; modifier letter" when
  // Shift or Ctrl is held; "SS3 letter" in the application cursor keys mode).
  const CURSOR_KEYS = { ArrowUp: "A", ArrowDown: "B", ArrowRight: "C", ArrowLeft: "D", Home: "H", End: "F" };

  /** What xterm.js sends for the key of ``event``, or null: not one of the game's. */
  function keyInput(event, terminal) {
    if (event.metaKey || event.altKey || event.isComposing) return null;
    const key = event.key;
    if (key in CURSOR_KEYS) {
      const modifier = (event.shiftKey ? 1 : 0) + (event.ctrlKey ? 4 : 0);
      if (modifier) return "\x1b[1;" + (modifier + 1) + CURSOR_KEYS[key];
      return (terminal.modes.applicationCursorKeysMode ? "\x1bO" : "\x1b[") + CURSOR_KEYS[key];
    }
    if (event.ctrlKey) {
      // Ctrl+letter: the control character (Ctrl+A is 1); other Ctrl keys stay the browser's.
      return /^[a-z]$/i.test(key) ? String.fromCharCode(key.toLowerCase().charCodeAt(0) - 96) : null;
    }
    if (key === "Tab" && event.shiftKey) return "\x1b[Z";
    if (Object.prototype.hasOwnProperty.call(KEY_INPUT, key)) return KEY_INPUT[key];
    // A printable character is its own name ("n", "N", "é", " "); the others have words.
    return Array.from(key).length === 1 ? key : null;
  }

  function keysOfAKeyboard(terminal, textAreaPutAway) {
    document.addEventListener("keydown", function (event) {
      // Only a key that nothing else on the page took (the page's own buttons keep theirs).
      const target = event.target;
      const nowhere = target === document.body || target === document.documentElement || target === document;
      if (event.defaultPrevented || !nowhere || !textAreaPutAway()) return;
      const data = keyInput(event, terminal);
      if (data === null) return;
      event.preventDefault();
      terminal.input(data, true);
    });
  }

  // -- a finger's swipe scrolls what it is on ---------------------------------------
  // xterm.js turns a mouse's wheel into the app's scrolling, and a finger's swipe into
  // nothing: a form taller than a phone turned sideways could not be scrolled.  A
  // vertical swipe becomes wheel steps, one for each row the finger travels, reported
  // (SGR, as Textual asks) at the cell under the finger.
  const WHEEL_UP = 64;
  const WHEEL_DOWN = 65;

  function swipesScroll(terminal) {
    const element = terminal.element;
    let lastY = null;
    element.addEventListener(
      "touchstart",
      function (event) {
        lastY = event.touches.length === 1 ? event.touches[0].clientY : null;
      },
      { passive: true },
    );
    element.addEventListener(
      "touchmove",
      function (event) {
        const screen = element.querySelector(".xterm-screen");
        if (lastY === null || event.touches.length !== 1 || !screen) return;
        const touch = event.touches[0];
        const box = screen.getBoundingClientRect();
        const rowHeight = box.height / terminal.rows;
        const steps = Math.trunc((touch.clientY - lastY) / rowHeight);
        if (steps === 0) return;
        lastY += steps * rowHeight;
        const column = cellIndex(touch.clientX - box.left, box.width / terminal.cols, terminal.cols);
        const row = cellIndex(touch.clientY - box.top, rowHeight, terminal.rows);
        // The finger going down pulls what is above into view: the wheel turned up.
        const report = "\x1b[<" + (steps > 0 ? WHEEL_UP : WHEEL_DOWN) + ";" + column + ";" + row + "M";
        terminal.input(report.repeat(Math.abs(steps)), false);
      },
      { passive: true },
    );
  }

  /** The 1-based cell at ``offset`` pixels, on a line of ``count`` cells of ``size``. */
  function cellIndex(offset, size, count) {
    return Math.min(count, Math.max(1, Math.floor(offset / size) + 1));
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
    document.body.classList.toggle("door-touch", touchScreen);
    const elements = document.querySelectorAll(".textual-terminal");
    for (const element of elements) element.dataset.sessionWebsocketUrl = socketUrl();
    for (const id of ["door-play-again", "door-try-again"]) {
      document.getElementById(id).addEventListener("click", function () {
        window.location.reload();
      });
    }
    let terminal = null;
    let size = askedFont() || DEFAULT_FONT;
    let chosen = askedFont() !== null; // else the window's size decides, and may again

    function chooseFont(wanted) {
      size = clampFont(wanted);
      chosen = true;
      try {
        window.localStorage.setItem(FONT_KEY, String(size));
      } catch (error) {
        // not saved: this page still gets it
      }
      if (terminal === null) {
        // textual.js changed: a reload with the size in the address
        const again = new URL(window.location.href);
        again.searchParams.set("fontsize", String(size));
        window.location.replace(again.toString());
        return;
      }
      terminal.options.fontSize = size;
      fit();
    }

    document.getElementById("door-font-smaller").addEventListener("click", function () {
      chooseFont(size - 1);
    });
    document.getElementById("door-font-larger").addEventListener("click", function () {
      chooseFont(size + 1);
    });
    window.addEventListener("resize", function () {
      // A phone turned: a font of the page's choosing is chosen again for the new shape.
      if (chosen || terminal === null || !elements.length) return;
      const fitting = fittingFont(elements[0]);
      if (fitting !== size) {
        size = fitting;
        terminal.options.fontSize = size;
        fit();
      }
    });
    // textual.js measures a cell as soon as the page has loaded: with the font
    // not ready yet, every cell would be mis-sized.  Start it once the font is in.
    const startTerminal = window.onload;
    if (typeof startTerminal === "function") {
      window.onload = null;
      window.addEventListener("load", function (event) {
        const ready = document.fonts
          ? document.fonts.load(DEFAULT_FONT + "px 'Roboto Mono'").catch(function () {})
          : Promise.resolve();
        ready.then(function () {
          if (!chosen && elements.length) size = fittingFont(elements[0]);
          for (const element of elements) element.dataset.fontSize = String(size);
          terminal = catchTerminal(function () {
            startTerminal.call(window, event);
          });
          if (terminal !== null) {
            followTheApp(terminal);
            if (touchScreen) {
              keyboardOnlyToType(terminal);
              swipesScroll(terminal);
            }
          }
          if (!touchScreen) focusTerminal();
        });
      });
    }
  });

  // When the app turns focus reports on, xterm.js reports the state it is in.  With
  // a keyboard, the page's terminal has it from the start: keys go to the game.
  function focusTerminal() {
    const input = document.querySelector(".textual-terminal .xterm-helper-textarea");
    if (input) input.focus();
  }
})();
