// tetrarch gui: the page. Everything about the games comes from the server: the positions
// drawn by tetrarch's own SVG code, and the legal moves with how each is entered (the piece or
// hand kind to pick, the squares to click, what sets apart moves that share both). The page
// only shows them and sends the move the person chose.
"use strict";

const TOKEN = CONFIG.token;
const $ = (id) => document.getElementById(id);
let S = null; // the last state the server sent
let received = 0; // when it came (performance.now())
let shown = 0; // the ply on the board
let follow = true; // the board follows the game
let selected = null; // the origin picked: "sq:<square>" or "hand:<seat>:<kind>"
let byOrigin = new Map(); // origin key -> legal moves from it
let passes = []; // the legal moves without origin (pass)
let candidates = null; // the moves the chooser lists
let drawnKey = ""; // what the board shows now: "<generation>:<ply>:<turns>"
let boardSvg = null;
let downAt = null; // the square a pointer went down on, and when
let pending = null; // a move sent: {t0, plies}, for its display time
let analysing = null;
let resignArmed = 0;
let autoOpened = false;
// Milliseconds from a click to its highlighted targets, and from a person's move to its display.
const timings = { select: [], display: [] };
window.tetrarchTimings = timings;

async function api(method, path, body) {
  const opts = { method, headers: { "X-Tetrarch-Token": TOKEN } };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const r = await fetch(path + (path.includes("?") ? "&" : "?") + "token=" + TOKEN, opts);
  const text = await r.text();
  let v = null;
  try { v = JSON.parse(text); } catch (e) { v = text; }
  if (!r.ok) throw new Error(v && v.error ? v.error : "HTTP " + r.status);
  return v;
}

function say(text) { $("message").textContent = text || ""; }

function seatOf(letter) { return S && S.seats ? S.seats.find((s) => s.letter === letter) : null; }
function seatName(letter) { const s = seatOf(letter); return s ? s.name : letter; }
function turns() {
  const v = $("view").value;
  return v === "auto" || v === "" ? (S ? S.view : 0) : Number(v);
}
function live() { return S && S.status === "running"; }
function inputOn() { return live() && S.person !== null && follow && shown === S.moves.length; }
function humans() { return S ? S.players.map((p, i) => (p.kind === "person" ? i : -1)).filter((i) => i >= 0) : []; }

// ---- the board

let boardOf = ""; // the game and view of the squares drawn: those stay, what stands on them changes
let panelShown = "";
function paint(f) {
  const squares = (S ? S.generation : "") + ":" + turns();
  if (boardSvg && boardOf === squares || !f.svg) {
    boardSvg.querySelector("defs").innerHTML = f.defs;
    boardSvg.querySelector("g.position").innerHTML = f.men;
  } else {
    $("board").innerHTML = f.svg;
    boardSvg = $("board").querySelector("svg");
    boardOf = squares;
  }
  if (f.panel !== panelShown) {
    $("panel").innerHTML = f.panel;
    panelShown = f.panel;
  }
  dress($("board"));
  dress($("panel"));
}

// The pieces' faces: figurines for the chess-like games, kanji for Judkins, or the letters
// the rules library draws. Only the drawings in the pictures' <defs> change: every piece on the
// board and in hand uses one of them.
const FACES = {
  figurines: { K: "\u265A", Q: "\u265B", R: "\u265C", B: "\u265D", N: "\u265E", P: "\u265F" },
  kanji: { K: "\u738B", G: "\u91D1", S: "\u9280", N: "\u6842", B: "\u89D2", R: "\u98DB", P: "\u6B69",
    "+S": "\u5168", "+N": "\u572D", "+P": "\u3068", "+B": "\u99AC", "+R": "\u9F8D" },
};
function faces(v) {
  const want = $("pieces").value;
  if (want === "letters") return null;
  if (v === "judkins") return want === "kanji" ? FACES.kanji : null;
  // Chaturanga's ship is the bishop's ancestor; Judtho's Prince and Princess keep their letters.
  const map = Object.assign({}, FACES.figurines);
  if (v.startsWith("chaturanga")) { map.S = FACES.figurines.B; delete map.B; delete map.Q; }
  if (v === "judtho") { delete map.S; delete map.C; }
  return map;
}
function dress(root, variant) {
  const map = faces(variant || (S && S.variant ? S.variant.name : ""));
  for (const t of root.querySelectorAll("defs text")) {
    const letter = t.dataset.letter === undefined ? t.textContent : t.dataset.letter;
    const face = map ? map[letter] : undefined;
    // Untouched drawings stay untouched: a change to a drawing repaints every piece using it.
    if ((face || letter) === t.textContent) continue;
    if (t.dataset.letter === undefined) {
      t.dataset.letter = letter;
      t.dataset.size = t.getAttribute("font-size");
      t.dataset.y = t.getAttribute("y");
    }
    t.textContent = face || letter;
    const big = face && map !== FACES.kanji;
    t.setAttribute("font-size", big ? "26" : t.dataset.size);
    t.setAttribute("y", big ? "9" : t.dataset.y);
  }
}

function drawFrame(f, key) {
  paint(f);
  drawnKey = key;
  decorate();
  caption(f);
}

function caption(f) {
  let words = "";
  if (f.last) {
    const who = seatName(f.last.seat);
    words = shown + ". " + who + (f.last.move === "pass" ? " passed" : " played " + f.last.move);
  } else {
    words = "Start";
  }
  let state;
  if (f.outcome) {
    state = f.outcome.words;
  } else {
    state = seatName(f.turn) + " to move";
    if (f.checks && f.checks !== "-") state += " (check: " + f.checks.split("").map(seatName).join(", ") + ")";
  }
  $("caption").textContent = words + " \u2014 " + state;
  hints(f);
}

// What a person needs told now: the position's hints from the rules library (the Assembly's
// realm, a piece kept in hand, allies), and who the person plays.
function hints(f) {
  const list = [];
  if (S && S.status === "running" && shown === S.moves.length) {
    for (const p of S.players) {
      if (p.kind !== "person" || p.seats.length < 2) continue;
      const armies = p.seats.split("").map(seatName);
      list.push("You play " + armies.join(" and ") + ": each army moves in its own turn, and the one to move is framed on the board.");
    }
  }
  if (f && f.hints && shown === (S ? S.moves.length : 0)) list.push(...f.hints);
  const box = $("hints");
  // Rewritten only when it changes: a new height moves everything under it.
  if (box.dataset.shown === list.join("\n")) return;
  box.dataset.shown = list.join("\n");
  box.textContent = "";
  for (const h of list) {
    const li = document.createElement("li");
    li.textContent = h;
    box.appendChild(li);
  }
}

async function showPly(ply, keep) {
  if (!S || !S.variant) return;
  ply = Math.max(0, Math.min(ply, S.moves.length));
  shown = ply;
  follow = ply === S.moves.length;
  if (!keep) clearSelection();
  const t = turns();
  const key = S.generation + ":" + ply + ":" + t + ":" + S.moves.length;
  // The state brings the position now without the squares under it, which a board of this
  // game and view already has; anything else is asked for.
  if (follow && t === S.view && S.frame && boardOf === S.generation + ":" + t) {
    drawFrame(S.frame, key);
  } else if (key !== drawnKey) {
    try {
      const f = await api("GET", "/api/frame?ply=" + ply + "&turns=" + t);
      if (shown === ply) drawFrame(f, key);
    } catch (e) { say(e.message); }
  }
  listMoves();
  controls();
  if (analysing !== null && analysing !== shown) analyse(shown);
}

// Highlights drawn over the board: the picked piece, its targets, the chooser's squares.
function cellRect(square) {
  return $("board").querySelector('[data-cell="' + CSS.escape(square) + '"]');
}

function mark(square, kind) {
  const r = cellRect(square);
  if (!r) return;
  const ns = "http://www.w3.org/2000/svg";
  const layer = boardSvg.querySelector("#hl");
  const x = Number(r.getAttribute("x")), y = Number(r.getAttribute("y")), w = Number(r.getAttribute("width"));
  let el;
  if (kind === "target") {
    el = document.createElementNS(ns, "circle");
    el.setAttribute("cx", x + w / 2);
    el.setAttribute("cy", y + w / 2);
    el.setAttribute("r", w / 6);
    el.setAttribute("fill", "#2f9e44");
    el.setAttribute("fill-opacity", "0.75");
    el.setAttribute("stroke", "#fff");
  } else {
    el = document.createElementNS(ns, "rect");
    el.setAttribute("x", x + 2);
    el.setAttribute("y", y + 2);
    el.setAttribute("width", w - 4);
    el.setAttribute("height", w - 4);
    el.setAttribute("fill", kind === "origin" ? "#1c7ed6" : "#ae3ec9");
    el.setAttribute("fill-opacity", "0.25");
    el.setAttribute("stroke", kind === "origin" ? "#1c7ed6" : "#ae3ec9");
    el.setAttribute("stroke-width", "3");
  }
  el.setAttribute("data-hl", kind);
  el.setAttribute("data-sq", square);
  layer.appendChild(el);
}

function decorate() {
  if (!boardSvg) return;
  let layer = boardSvg.querySelector("#hl");
  if (!layer) {
    layer = document.createElementNS("http://www.w3.org/2000/svg", "g");
    layer.setAttribute("id", "hl");
    layer.setAttribute("pointer-events", "none");
    boardSvg.appendChild(layer);
  }
  for (const h of document.querySelectorAll("#board [data-hl], #panel [data-hl]")) h.remove();
  markRealm(layer);
  if (!selected) return;
  if (selected.startsWith("sq:")) mark(selected.slice(3), "origin");
  else {
    // A kind in hand: a ring around it, in the hand's own group.
    const [, seat, kind] = selected.split(":");
    for (const h of document.querySelectorAll("#panel .inhand")) {
      if (h.dataset.seat !== seat || h.dataset.kind !== kind) continue;
      const at = h.transform.baseVal.numberOfItems > 0 ? h.transform.baseVal.getItem(0).matrix : null;
      if (!at) continue;
      const ring = document.createElementNS("http://www.w3.org/2000/svg", "circle");
      ring.setAttribute("cx", at.e);
      ring.setAttribute("cy", at.f);
      ring.setAttribute("r", "15");
      ring.setAttribute("fill", "none");
      ring.setAttribute("stroke", "#1c7ed6");
      ring.setAttribute("stroke-width", "4");
      ring.setAttribute("pointer-events", "none");
      ring.setAttribute("data-hl", "origin");
      h.parentNode.appendChild(ring);
    }
  }
  const moves = candidates || byOrigin.get(selected) || [];
  const targets = new Set();
  for (const m of moves) for (const t of m.to) targets.add(t);
  for (const t of targets) mark(t, "target");
  if (candidates) {
    const marks = new Set();
    for (const m of candidates) for (const s of m.marks) marks.add(s);
    for (const s of marks) mark(s, "mark");
  }
}

// During the Assembly, the Realm where the person places is outlined in its owner's colour.
function markRealm(layer) {
  if (!inputOn() || !S.frame || !S.frame.hints.some((h) => h.startsWith("Assembly"))) return;
  const seat = S.variant.seats[S.turn.seat];
  const cells = [...boardSvg.querySelectorAll('[data-realm="' + seat + '"]')];
  if (cells.length === 0) return;
  const xs = cells.map((c) => Number(c.getAttribute("x"))), ys = cells.map((c) => Number(c.getAttribute("y")));
  const w = Number(cells[0].getAttribute("width"));
  const r = document.createElementNS("http://www.w3.org/2000/svg", "rect");
  r.setAttribute("x", Math.min(...xs) + 1.5);
  r.setAttribute("y", Math.min(...ys) + 1.5);
  r.setAttribute("width", Math.max(...xs) - Math.min(...xs) + w - 3);
  r.setAttribute("height", Math.max(...ys) - Math.min(...ys) + w - 3);
  r.setAttribute("fill", "none");
  r.setAttribute("stroke", "#1c7ed6");
  r.setAttribute("stroke-width", "3");
  r.setAttribute("stroke-dasharray", "8 5");
  r.setAttribute("data-hl", "realm");
  layer.appendChild(r);
}

function clearSelection() {
  selected = null;
  closeChooser();
  decorate();
}

function originKey(el) {
  if (!el) return null;
  if (el.classList && el.classList.contains("inhand")) return "hand:" + el.dataset.seat + ":" + el.dataset.kind;
  const sq = el.dataset ? el.dataset.sq || el.dataset.cell : null;
  return sq ? "sq:" + sq : null;
}

function hitAt(target) {
  return target && target.closest ? target.closest(".inhand,[data-sq],[data-cell]") : null;
}

function squareOf(el) {
  if (!el || !el.dataset || (el.classList && el.classList.contains("inhand"))) return null;
  return el.dataset.sq || el.dataset.cell || null;
}

// Runs `f` once what was just drawn has been painted: at the next frame, after its paint.
function afterPaint(f) { requestAnimationFrame(() => setTimeout(f, 0)); }

function pick(el, t0) {
  if (!inputOn()) {
    if (live() && S.person !== null && !follow && originKey(el)) {
      say("You are looking at move " + shown + " of " + S.moves.length + ": press End or \u25B6| to go back to the game, then move.");
    } else if (live() && S.person === null && humans().length > 0 && originKey(el) && S.turn) {
      say("It is " + seatName(S.variant.seats[S.turn.seat]) + "'s turn: " + S.players[S.turn.player].name + " is thinking.");
    }
    return;
  }
  const square = squareOf(el);
  // A target of the piece picked, or one of the chooser's squares.
  if (selected && square) {
    const moves = (candidates || byOrigin.get(selected) || []).filter((m) => m.to.includes(square) || (candidates && m.marks.includes(square)));
    if (moves.length > 0 && !(candidates === null && originKey(el) === selected)) {
      choose(moves, t0, square);
      return;
    }
  }
  const key = originKey(el);
  if (key && byOrigin.has(key) && key !== selected) {
    closeChooser();
    selected = key;
    decorate();
    afterPaint(() => timings.select.push(performance.now() - t0));
    return;
  }
  clearSelection();
}

function choose(moves, t0, square) {
  if (moves.length === 1) {
    send(moves[0].text, t0);
    return;
  }
  openChooser(moves, square);
}

function openChooser(moves, square) {
  candidates = moves;
  const list = $("chooser-list");
  list.textContent = "";
  $("chooser-title").textContent = moves.length + " moves " + (square ? "to " + square : "") + ": which one?";
  for (const m of moves) {
    const b = document.createElement("button");
    b.dataset.move = m.text;
    b.textContent = m.text;
    if (m.words) {
      const small = document.createElement("small");
      small.textContent = m.words;
      b.appendChild(small);
    }
    b.addEventListener("click", (e) => send(m.text, e.timeStamp));
    b.addEventListener("mouseenter", () => preview(m));
    b.addEventListener("focus", () => preview(m));
    b.addEventListener("mouseleave", unpreview);
    b.addEventListener("blur", unpreview);
    list.appendChild(b);
  }
  $("chooser").hidden = false;
  decorate();
}

function closeChooser() {
  if (candidates === null) return;
  candidates = null;
  $("chooser").hidden = true;
  unpreview();
}

let previewing = null;
async function preview(m) {
  previewing = m.text;
  try {
    const f = await api("GET", "/api/preview?move=" + encodeURIComponent(m.text) + "&turns=" + turns() +
      "&generation=" + S.generation + "&ply=" + S.moves.length);
    // An empty answer: the move was played (or the game changed) before the preview was asked.
    if (!f || previewing !== m.text) return;
    paint(f);
    drawnKey = "preview";
    decorate();
    for (const s of m.marks) mark(s, "mark");
    $("caption").textContent = "If " + m.text + (m.words ? " (" + m.words + ")" : "") + ": the position after it";
  } catch (e) { say(e.message); }
}

function unpreview() {
  if (previewing === null) return;
  previewing = null;
  if (drawnKey === "preview") showPly(shown, true);
}

async function send(text, t0) {
  const plies = S.moves.length + 1;
  pending = { t0, plies };
  selected = null;
  closeChooser();
  decorate();
  try {
    await api("POST", "/api/move", { move: text });
    say("");
  } catch (e) {
    pending = null;
    say("refused: " + e.message);
  }
}

function indexMoves() {
  byOrigin = new Map();
  passes = [];
  if (!S || S.person === null) return;
  for (const m of S.legal) {
    if (m.from === null) { passes.push(m); continue; }
    const key = m.from.square !== undefined ? "sq:" + m.from.square : "hand:" + m.from.seat + ":" + m.from.kind;
    if (!byOrigin.has(key)) byOrigin.set(key, []);
    byOrigin.get(key).push(m);
  }
}

// ---- the rest of the page

function clockText(ms) {
  if (ms === null || ms === undefined) return "";
  ms = Math.max(0, ms);
  const s = Math.floor(ms / 1000);
  const tenths = Math.floor(ms / 100) % 10;
  return s >= 60 ? Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0") : s + "." + tenths;
}

function seatClock(letter) {
  if (!S || !S.turn) return null;
  const i = S.variant.seats.indexOf(letter);
  const left = S.turn.clocks[i];
  if (left === null || left === undefined) return null;
  if (i !== S.turn.seat) return left;
  return left - (S.turn.elapsed + performance.now() - received);
}

function infoText(info) {
  if (!info) return "";
  const parts = [];
  if (info.depth !== undefined) parts.push("depth " + info.depth);
  if (info.score !== undefined) parts.push(info.score);
  if (info.nps !== undefined) parts.push(Math.round(info.nps / 1000) + " kN/s");
  if (info.pv) parts.push(info.pv.split(" ").slice(0, 8).join(" "));
  return parts.join(" \u00b7 ");
}

let playersDrawn = "";
function players() {
  const body = $("players").querySelector("tbody");
  if (!S || !S.variant) { body.textContent = ""; playersDrawn = ""; return; }
  const toMove = S.turn ? S.variant.seats[S.turn.seat] : null;
  const who = S.generation + JSON.stringify(S.players.map((p) => [p.name, p.seats, p.human, p.time]));
  if (who === playersDrawn) {
    // The same table: who is to move, and what the engines said.
    for (const tr of body.children) {
      const p = S.players[Number(tr.dataset.player)];
      tr.classList.toggle("tomove", !!toMove && p.seats.includes(toMove));
      tr.querySelector(".info").textContent = infoText(p.info);
    }
    tick();
    return;
  }
  playersDrawn = who;
  body.textContent = "";
  S.players.forEach((p, i) => {
    const tr = document.createElement("tr");
    tr.dataset.player = i;
    if (toMove && p.seats.includes(toMove)) tr.classList.add("tomove");
    const sw = document.createElement("td");
    for (const l of p.seats) {
      const s = document.createElement("span");
      const seat = seatOf(l);
      if (seat && seat.symbol) {
        s.className = "symbol";
        s.textContent = seat.symbol;
      } else {
        s.className = "swatch";
        s.style.background = seat ? seat.fill : "#888";
      }
      s.title = seatName(l);
      sw.appendChild(s);
    }
    const name = document.createElement("td");
    name.textContent = p.seats.split("").map(seatName).join(" & ") + ": " + p.name + (p.kind === "person" ? " (you)" : "") + (p.time && p.time !== "none" ? " \u00b7 " + p.time : "");
    const clock = document.createElement("td");
    clock.className = "clock";
    clock.dataset.seats = p.seats;
    const info = document.createElement("td");
    info.className = "info";
    info.textContent = infoText(p.info);
    tr.append(sw, name, clock, info);
    body.appendChild(tr);
  });
  tick();
}

function tick() {
  for (const c of document.querySelectorAll("#players .clock")) {
    const parts = [];
    for (const l of c.dataset.seats) {
      const ms = seatClock(l);
      if (ms !== null) parts.push((c.dataset.seats.length > 1 ? seatName(l) + " " : "") + clockText(ms));
    }
    c.textContent = parts.join(" \u00b7 ");
    c.classList.toggle("low", parts.length > 0 && c.dataset.seats.split("").some((l) => { const ms = seatClock(l); return ms !== null && ms < 10000; }));
  }
}

let listed = { generation: -1, moves: [] };
function listMoves() {
  const box = $("moves");
  if (!S || !S.variant) { box.textContent = ""; return; }
  const n = S.variant.seats.length;
  // The list grows move by move; a new game or a take-back writes it again.
  const same = listed.generation === S.generation && listed.moves.length <= S.moves.length &&
    listed.moves.every((m, k) => m === S.moves[k]);
  if (!same) {
    listed = { generation: S.generation, moves: [] };
    box.textContent = "";
    box.dataset.generation = S.generation;
    const start = document.createElement("a");
    start.className = "mv";
    start.dataset.ply = 0;
    start.textContent = "start";
    box.appendChild(start);
  }
  for (let k = listed.moves.length; k < S.moves.length; k++) {
    const m = S.moves[k];
    listed.moves.push(m);
    const a = document.createElement("a");
    a.className = "mv";
    a.dataset.ply = k + 1;
    a.dataset.move = m;
    if (k % n === 0) {
      const num = document.createElement("span");
      num.className = "num";
      num.textContent = " " + (k / n + 1) + ".";
      a.appendChild(num);
    }
    a.appendChild(document.createTextNode(m));
    if (S.data[k]) a.title = S.data[k];
    box.appendChild(a);
  }
  const old = box.querySelector(".mv.shown");
  if (old) old.classList.remove("shown");
  const cur = box.querySelector('.mv[data-ply="' + shown + '"]');
  if (cur) cur.classList.add("shown");
  // Only the list scrolls to the move shown, never the page; after the paint, since it reads
  // the list's layout.
  // A person who went back to a past move in that moment keeps the list where it is.
  if (cur && follow) afterPaint(() => { if (follow) box.scrollTop = box.scrollHeight; });
}

function controls() {
  const total = S && S.moves ? S.moves.length : 0;
  $("plyinfo").textContent = shown + " / " + total;
  $("first").disabled = $("prev").disabled = shown === 0;
  $("next").disabled = $("last").disabled = shown >= total;
  const on = inputOn();
  $("pass").hidden = !(on && passes.length > 0);
  const people = humans();
  $("resign").disabled = !(live() && people.length > 0);
  // A game with clocks has no take-back; the button says why rather than staying silent.
  const tb = $("takeback");
  const why = S && S.takeback_why;
  tb.disabled = !(live() && people.length > 0 && (why || (S.takeback && total > 0)));
  tb.classList.toggle("off", !!why);
  tb.setAttribute("aria-disabled", why ? "true" : "false");
  tb.title = why || "take back to before your last move";
  $("playon").disabled = !(S && S.variant && (S.status !== "running" || !follow));
  $("analyse").disabled = !(S && S.variant);
  $("analyse").textContent = analysing === null ? "Analyse" : "Stop analysis";
  $("save").disabled = !(S && S.variant && S.status !== "idle");
}

function headline() {
  if (!S || !S.variant) { $("headline").textContent = "No game yet: press New game"; return; }
  let h = S.variant.title;
  if (S.status === "running" && S.turn) {
    const letter = S.variant.seats[S.turn.seat];
    h += " \u2014 " + seatName(letter) + " to move" + (S.person !== null ? " (you)" : "");
  } else if (S.result) {
    h += " \u2014 " + S.result.words;
  } else if (S.status === "review") {
    h += " \u2014 loaded, " + S.moves.length + " moves";
  }
  $("headline").textContent = h;
  $("result").textContent = S.result ? "Result: " + S.result.words + " (" + S.result.result + " in the record, one score per " + (S.variant.seats.length > 2 ? "army" : "player") + ")" : "";
}

function viewChoices() {
  const sel = $("view");
  const want = sel.value || "auto";
  sel.textContent = "";
  const auto = document.createElement("option");
  auto.value = "auto";
  auto.textContent = "auto";
  sel.appendChild(auto);
  // Seats that share a side of the board share a view: "from White & Yellow".
  const views = new Map();
  for (const s of (S && S.seats) || []) {
    if (!views.has(s.view)) views.set(s.view, []);
    views.get(s.view).push(s.name);
  }
  for (const [view, names] of views) {
    const o = document.createElement("option");
    o.value = String(view);
    o.textContent = "from " + names.join(" & ");
    sel.appendChild(o);
  }
  sel.value = [...sel.options].some((o) => o.value === want) ? want : "auto";
}

// A state is drawn as it comes; more that come within the same frame are drawn once, at the
// next frame, with the last of them (engines at a low level move faster than frames).
let queued = null;
let drewThisFrame = false;
function onState(st) {
  if (drewThisFrame) {
    queued = st;
    return;
  }
  drewThisFrame = true;
  applyState(st);
  requestAnimationFrame(() => {
    drewThisFrame = false;
    if (queued !== null) {
      const q = queued;
      queued = null;
      onState(q);
    }
  });
}

function applyState(st) {
  const newGame = !S || S.generation !== st.generation;
  const grew = S && !newGame && st.moves.length !== S.moves.length;
  S = st;
  received = performance.now();
  indexMoves();
  if (newGame) {
    drawnKey = "";
    viewChoices();
    analysing = st.analysis;
    $("analysis").hidden = analysing === null;
  }
  if (newGame || follow || grew && shown > S.moves.length) {
    shown = S.moves.length;
    follow = true;
  }
  if (selected && !byOrigin.has(selected)) clearSelection();
  headline();
  players();
  showPly(shown, true);
  if (pending && S.moves.length >= pending.plies) {
    // The time is taken once what was drawn is painted.
    const t0 = pending.t0;
    pending = null;
    afterPaint(() => timings.display.push(performance.now() - t0));
  }
  // A newcomer finds the New game dialog open; it goes away by itself once a game is at the
  // table from anywhere else (another tab, a script).
  if (S.status === "idle" && !$("newgame").open && !$("loaddlg").open) {
    openNewGame();
    autoOpened = true;
  } else if (newGame && S.status !== "idle" && autoOpened && $("newgame").open) {
    $("newgame").close();
    autoOpened = false;
  }
}

function onInfo(v) {
  if (!S || !S.players[v.player]) return;
  S.players[v.player].info = v.info;
  const cell = document.querySelector('#players tr[data-player="' + v.player + '"] .info');
  if (cell) cell.textContent = infoText(v.info);
}

function onAnalysis(v) {
  if (analysing === null || v.ply !== analysing) return;
  $("analysis").hidden = false;
  if (v.error) $("analysis-line").textContent = v.error;
  else if (v.info) $("analysis-line").textContent = (v.engine || "") + " at ply " + v.ply + ": " + infoText(v.info);
}

async function analyse(ply) {
  analysing = ply;
  $("analysis").hidden = false;
  $("analysis-line").textContent = "thinking on ply " + ply + "\u2026";
  controls();
  try { await api("POST", "/api/analyse", { ply }); } catch (e) { say(e.message); }
}

// ---- dialogs

// The Rules panel: each game's rules for players, with pictures, from the server.
const guides = new Map();
async function showRules(variant) {
  $("rules-variant").value = variant;
  const body = $("rules-body");
  try {
    if (!guides.has(variant)) guides.set(variant, await api("GET", "/api/guide?variant=" + encodeURIComponent(variant)));
    const g = guides.get(variant);
    body.textContent = "";
    const lead = document.createElement("p");
    lead.className = "lead";
    lead.textContent = g.summary;
    body.appendChild(lead);
    for (const s of g.sections) {
      const h = document.createElement("h3");
      h.textContent = s.heading;
      body.appendChild(h);
      for (const t of s.text) {
        const p = document.createElement("p");
        p.textContent = t;
        body.appendChild(p);
      }
      if (s.picture) {
        const fig = document.createElement("figure");
        // The picture is tetrarch's own drawing of a position, made by this server.
        fig.innerHTML = s.picture;
        const cap = document.createElement("figcaption");
        cap.textContent = s.caption || "";
        fig.appendChild(cap);
        body.appendChild(fig);
        dress(fig, variant);
      }
    }
  } catch (e) { body.textContent = e.message; }
}
function openRules(variant) {
  showRules(variant);
  if (!$("rulesdlg").open) $("rulesdlg").showModal();
}

function playersOf(v) {
  return v.players.map((letters) => letters.split("").map((l) => v.names[v.seats.indexOf(l)]).join(" & "));
}

function engineChoices(select) {
  select.textContent = "";
  const add = (value, text) => { const o = document.createElement("option"); o.value = value; o.textContent = text; select.appendChild(o); };
  add("human", "a person (you)");
  add("self", "tetrarch");
  for (const e of CONFIG.engines) add("cli:" + e, e);
  add("other", "another engine\u2026");
}

function ngPlayers() {
  const v = CONFIG.variants.find((x) => x.name === $("ng-variant").value);
  const box = $("ng-players");
  const old = [...box.querySelectorAll(".player")].map((r) => ({ who: r.querySelector("select").value, time: r.querySelector(".time").value, spec: r.querySelector(".spec").value }));
  box.textContent = "";
  playersOf(v).forEach((label, i) => {
    const row = document.createElement("div");
    row.className = "player";
    row.dataset.player = i;
    const l = document.createElement("span");
    l.textContent = label;
    const who = document.createElement("select");
    who.className = "who";
    engineChoices(who);
    const time = document.createElement("input");
    time.type = "text";
    time.className = "time";
    const spec = document.createElement("input");
    spec.type = "text";
    spec.className = "spec";
    spec.placeholder = "name=... cmd=/path/to/engine";
    spec.style.gridColumn = "2 / 4";
    const prev = old[i];
    who.value = prev ? prev.who : i === 0 ? "human" : "self";
    time.value = prev ? prev.time : i === 0 ? "none" : "movetime 1000";
    spec.value = prev ? prev.spec : "";
    const sync = () => {
      spec.hidden = who.value !== "other";
      if (who.value === "human" && /^(depth|nodes)/.test(time.value)) time.value = "none";
      if (who.value !== "human" && time.value.trim() === "none") time.value = "movetime 1000";
    };
    who.addEventListener("change", sync);
    sync();
    row.append(l, who, time, spec);
    box.appendChild(row);
  });
}

function openNewGame(start) {
  $("ng-error").textContent = "";
  if (start) {
    $("ng-variant").value = start.variant;
    $("ng-start").value = start.text;
    $("ng-start").closest("details").open = start.text !== "";
  }
  ngPlayers();
  $("newgame").showModal();
}

async function startGame(e) {
  e.preventDefault();
  const rows = [...$("ng-players").querySelectorAll(".player")];
  const body = {
    variant: $("ng-variant").value,
    start: $("ng-start").value,
    max_plies: Number($("ng-max").value) || 1000,
    players: rows.map((r) => {
      const who = r.querySelector(".who").value;
      const p = { who: who === "human" ? "human" : "engine", time: r.querySelector(".time").value };
      if (who === "self") p.engine = "self";
      else if (who.startsWith("cli:")) p.engine = who.slice(4);
      else if (who === "other") p.engine = r.querySelector(".spec").value;
      return p;
    }),
  };
  try {
    await api("POST", "/api/new", body);
    $("newgame").close();
    say("");
  } catch (err) {
    $("ng-error").textContent = err.message;
  }
}

async function loadGame(e) {
  e.preventDefault();
  try {
    await api("POST", "/api/load", { text: $("ld-text").value, game: Number($("ld-game").value) || 1, variant: $("ld-variant").value });
    $("loaddlg").close();
    say("");
  } catch (err) {
    $("ld-error").textContent = err.message;
  }
}

async function save() {
  try {
    const r = await fetch("/api/record?token=" + TOKEN, { headers: { "X-Tetrarch-Token": TOKEN } });
    if (!r.ok) throw new Error((await r.json()).error);
    const blob = new Blob([await r.text()], { type: "application/x-chess-pgn" });
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = (S.variant ? S.variant.name : "game") + ".pgn";
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
  } catch (err) { say(err.message); }
}

// ---- wiring

function wire() {
  for (const v of CONFIG.variants) {
    for (const sel of [$("ng-variant"), $("ld-variant")]) {
      const o = document.createElement("option");
      o.value = v.name;
      o.textContent = v.title;
      sel.appendChild(o);
    }
  }
  for (const v of CONFIG.variants) {
    const o = document.createElement("option");
    o.value = v.name;
    o.textContent = v.title;
    $("rules-variant").appendChild(o);
  }
  $("rules").addEventListener("click", () => openRules(S && S.variant ? S.variant.name : $("ng-variant").value));
  $("rules-variant").addEventListener("change", () => showRules($("rules-variant").value));
  $("pieces").addEventListener("change", () => { dress($("board")); dress($("panel")); });
  $("ng-variant").addEventListener("change", ngPlayers);
  $("newgame-form").addEventListener("submit", (e) => { if (e.submitter && e.submitter.value === "cancel") return; startGame(e); });
  $("ng-cancel").addEventListener("click", (e) => { e.preventDefault(); $("newgame").close(); });
  $("ld-go").addEventListener("click", loadGame);
  $("new").addEventListener("click", () => { autoOpened = false; openNewGame(S && S.variant ? { variant: S.variant.name, text: "" } : null); });
  $("load").addEventListener("click", () => { $("ld-error").textContent = ""; $("loaddlg").showModal(); });
  $("save").addEventListener("click", save);
  $("first").addEventListener("click", () => showPly(0));
  $("prev").addEventListener("click", () => showPly(shown - 1));
  $("next").addEventListener("click", () => showPly(shown + 1));
  $("last").addEventListener("click", () => showPly(S ? S.moves.length : 0));
  $("view").addEventListener("change", () => { drawnKey = ""; showPly(shown, true); });
  $("moves").addEventListener("click", (e) => { const a = e.target.closest(".mv"); if (a) showPly(Number(a.dataset.ply)); });
  $("chooser-cancel").addEventListener("click", clearSelection);
  $("pass").addEventListener("click", (e) => { if (passes.length === 1) send(passes[0].text, e.timeStamp); else openChooser(passes, null); });
  $("resign").addEventListener("click", async () => {
    if (Date.now() - resignArmed > 3000) {
      resignArmed = Date.now();
      $("resign").classList.add("armed");
      $("resign").textContent = "Really resign?";
      setTimeout(() => { $("resign").classList.remove("armed"); $("resign").textContent = "Resign"; }, 3000);
      return;
    }
    resignArmed = 0;
    const people = humans();
    const player = S.person !== null ? S.person : people[0];
    try { await api("POST", "/api/resign", { player }); } catch (e) { say(e.message); }
  });
  $("takeback").addEventListener("click", async () => {
    if (S && S.takeback_why) { say(S.takeback_why); return; }
    const people = humans();
    const player = S.person !== null ? S.person : people[people.length - 1];
    try { await api("POST", "/api/takeback", { player }); } catch (e) { say(e.message); }
  });
  $("playon").addEventListener("click", () => {
    const start = (S.start ? S.start : "startpos") + (shown > 0 ? " moves " + S.moves.slice(0, shown).join(" ") : "");
    openNewGame({ variant: S.variant.name, text: shown === 0 && !S.start ? "" : start });
  });
  $("analyse").addEventListener("click", async () => {
    if (analysing === null) { analyse(shown); return; }
    analysing = null;
    $("analysis").hidden = true;
    controls();
    try { await api("POST", "/api/analyse/stop", {}); } catch (e) { say(e.message); }
  });
  for (const board of [$("board"), $("panel")]) {
  board.addEventListener("pointerdown", (e) => {
    const el = hitAt(e.target);
    downAt = { el, square: squareOf(el), key: originKey(el) };
    if (el && inputOn()) {
      // A press on a piece picks it at once, so that a drag shows its targets.
      const key = originKey(el);
      if (key && byOrigin.has(key) && key !== selected && !(selected && squareOf(el) && (byOrigin.get(selected) || []).some((m) => m.to.includes(squareOf(el))))) {
        pick(el, e.timeStamp);
        downAt.picked = true;
      }
    }
  });
  board.addEventListener("pointerup", (e) => {
    const under = hitAt(document.elementFromPoint(e.clientX, e.clientY));
    const from = downAt;
    downAt = null;
    if (!from) return;
    const square = squareOf(under);
    if (from.picked) {
      // Released elsewhere: a drag to that square.
      if (under && originKey(under) !== from.key && square) pick(under, e.timeStamp);
      return;
    }
    if (under) pick(under, e.timeStamp);
    else clearSelection();
  });
  }
  document.addEventListener("keydown", (e) => {
    if ($("newgame").open || $("loaddlg").open || $("rulesdlg").open || e.target.tagName === "INPUT" || e.target.tagName === "TEXTAREA" || e.target.tagName === "SELECT") return;
    if (e.key === "ArrowLeft") showPly(shown - 1);
    else if (e.key === "ArrowRight") showPly(shown + 1);
    else if (e.key === "Home") showPly(0);
    else if (e.key === "End") showPly(S ? S.moves.length : 0);
    else if (e.key === "Escape") clearSelection();
    else if (e.key === "n" || e.key === "N") $("new").click();
    else if (e.key === "r" || e.key === "R") $("rules").click();
  });
  setInterval(tick, 100);
  const events = new EventSource("/events?token=" + TOKEN);
  events.addEventListener("state", (e) => onState(JSON.parse(e.data)));
  events.addEventListener("info", (e) => onInfo(JSON.parse(e.data)));
  events.addEventListener("analysis", (e) => onAnalysis(JSON.parse(e.data)));
  events.addEventListener("open", () => say(""));
  events.addEventListener("error", () => say("the connection to tetrarch gui was lost; trying again\u2026"));
}

wire();
