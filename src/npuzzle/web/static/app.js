// npuzzle's web page: a sliding puzzle to play and time (session averages kept in the browser),
// replays, share links that follow the board, the server's solver and its solve analysis.
// Every record comes from the server's JSON API (docs/json.md); nothing is fetched from other sites.
// Letters name the way the pushed TILE slides, as in npuzzle: L slides the tile right of the blank left.
"use strict";

const $ = (id) => document.getElementById(id);
const MIN_SIDE = 2, MAX_SIDE = 10;
const STORE = "npuzzle.solves.v1", PREFS = "npuzzle.prefs.v1";
const STEP = { L: [0, 1], R: [0, -1], U: [1, 0], D: [-1, 0] };   // where the pushed tile is, from the blank
const OPPOSITE = { L: "R", R: "L", U: "D", D: "U" };

const S = {
  h: 4, w: 4, goal: "standard",
  tiles: [], start: [], kind: "random",   // the board now; the attempt's start and how it was made
  log: [], redo: [], undos: 0,             // the attempt's moves [{tile, letter, t}] and the undone ones
  phase: "free", t0: 0, elapsed: 0,        // inspect | running | done | free | replay
  inspectTimer: null, frame: null,
  els: [], cell: 40, pad: 6, gap: 4,
  replay: null, playing: null,             // {start, moves: [tile], letters, times, step, title}
  drag: null, job: null, checkTimer: null, checkSeq: 0, hashTimer: null, scrambleSeq: 0,
  analysis: null,                          // {record, key}: the last analysis and the solve it is of
};

// -- the board's rules ---------------------------------------------------------------------------

function goalTiles(h, w, goal) {
  const n = h * w, out = [];
  for (let i = 0; i < n; i++) out.push(goal === "blank-first" ? i : (i + 1) % n);
  return out;
}

const goalIndex = (t) => (S.goal === "blank-first" ? t : (t === 0 ? S.h * S.w - 1 : t - 1));
const isGoal = (tiles = S.tiles) => tiles.every((t, i) => goalIndex(t) === i);

// The tile a letter pushes on `tiles` (null if there is none).
function tileFor(letter, tiles = S.tiles) {
  const b = tiles.indexOf(0), r = Math.floor(b / S.w) + STEP[letter][0], c = (b % S.w) + STEP[letter][1];
  return r < 0 || r >= S.h || c < 0 || c >= S.w ? null : tiles[r * S.w + c];
}

function letterOf(tile, tiles = S.tiles) {
  const b = tiles.indexOf(0), t = tiles.indexOf(tile);
  const dr = Math.floor(t / S.w) - Math.floor(b / S.w), dc = (t % S.w) - (b % S.w);
  if (Math.abs(dr) + Math.abs(dc) !== 1) return null;
  return dc === 1 ? "L" : dc === -1 ? "R" : dr === 1 ? "U" : "D";
}

function swap(tiles, tile) {
  const b = tiles.indexOf(0), t = tiles.indexOf(tile);
  tiles[b] = tile; tiles[t] = 0;
}

// Solvable: the permutation's parity (cells to goal cells) equals the parity of the blank's distance.
function solvable(tiles, h, w, goal) {
  const n = h * w, home = (t) => (goal === "blank-first" ? t : (t === 0 ? n - 1 : t - 1));
  const seen = new Array(n).fill(false);
  let cycles = 0;
  for (let i = 0; i < n; i++) {
    if (seen[i]) continue;
    cycles++;
    for (let j = i; !seen[j]; j = home(tiles[j])) seen[j] = true;
  }
  const b = tiles.indexOf(0), g = home(0);
  const blank = Math.abs(Math.floor(b / w) - Math.floor(g / w)) + Math.abs((b % w) - (g % w));
  return (n - cycles) % 2 === blank % 2;
}

// "URDL2UR2", "U R D L L", "u3": the letters one by one (null if it is not such a text).
function expandMoves(text) {
  const compact = text.replace(/[\s,]+/g, "").toUpperCase();
  if (!/^([UDLR]\d*)*$/.test(compact)) return null;
  let out = "";
  for (const [, letter, count] of compact.matchAll(/([UDLR])(\d*)/g)) {
    const times = count ? Number(count) : 1;
    if (times > 10000 || out.length + times > 200000) return null;
    out += letter.repeat(times);
  }
  return out;
}

function compactMoves(letters) {
  return letters.replace(/([UDLR])\1+/g, (run, letter) => letter + run.length);
}

function rowsText(tiles) {
  const rows = [];
  for (let r = 0; r < S.h; r++) rows.push(tiles.slice(r * S.w, (r + 1) * S.w).join(" "));
  return rows.join("/");
}

// -- drawing -------------------------------------------------------------------------------------

function build() {
  const board = $("board");
  S.els = [null];
  const frag = document.createDocumentFragment();
  for (let t = 1; t < S.h * S.w; t++) {
    const el = document.createElement("div");
    el.className = "tile";
    el.dataset.tile = String(t);
    el.textContent = String(t);
    S.els.push(el);
    frag.appendChild(el);
  }
  board.replaceChildren(frag);
  board.dataset.shape = S.h + "x" + S.w;
  colour();
  layout();
}

// The cell size from the room there is: #board-wrap, sized by the style sheet from the window
// (its column's width, the window's height), whatever the board's shape, so nothing below moves.
function layout() {
  const wrap = $("board-wrap"), board = $("board");
  const side = Math.max(S.h, S.w);
  S.gap = side >= 7 ? 2 : side >= 5 ? 3 : 4;
  S.pad = side >= 7 ? 4 : 6;
  S.room = wrap.clientWidth + "x" + wrap.clientHeight;
  const roomW = wrap.clientWidth - 2 * S.pad + S.gap, roomH = wrap.clientHeight - 2 * S.pad + S.gap;
  S.cell = Math.max(16, Math.floor(Math.min(roomW / S.w, roomH / S.h)));
  board.style.width = (2 * S.pad + S.w * S.cell - S.gap) + "px";
  board.style.height = (2 * S.pad + S.h * S.cell - S.gap) + "px";
  const digits = String(S.h * S.w - 1).length;
  board.style.setProperty("--size", (S.cell - S.gap) + "px");
  board.style.setProperty("--font", Math.round((S.cell - S.gap) * (digits > 2 ? 0.36 : 0.44)) + "px");
  board.classList.add("still");
  place();
  requestAnimationFrame(() => board.classList.remove("still"));
}

function place() {
  S.tiles.forEach((t, i) => {
    if (t === 0 || !S.els[t]) return;
    const x = S.pad + (i % S.w) * S.cell, y = S.pad + Math.floor(i / S.w) * S.cell;
    S.els[t].style.transform = `translate(${x}px, ${y}px)`;
  });
}

function colour() {
  const scheme = $("scheme").value;
  const groups = { fringe: Math.min(S.h, S.w), rows: S.h, columns: S.w }[scheme] || 0;
  for (let t = 1; t < S.els.length; t++) {
    const g = goalIndex(t), r = Math.floor(g / S.w), c = g % S.w;
    const k = scheme === "fringe" ? Math.min(r, c) : scheme === "rows" ? r : c;
    if (groups) S.els[t].style.setProperty("--hue", String(Math.round(k * 360 / groups)));
    S.els[t].classList.toggle("coloured", groups > 0);
  }
}

function render() {
  place();
  const board = $("board");
  board.dataset.tiles = S.tiles.join(" ");
  board.classList.toggle("solved", isGoal());
  $("board-text").textContent = S.h + " by " + S.w + " board, rows: " + rowsText(S.tiles).replaceAll(" 0", " blank").replace(/^0 /, "blank ");
  showCount();
  scheduleCheck();
  scheduleHash();
}

function showCount() {
  const moves = S.phase === "replay" && S.replay ? S.replay.step : S.log.length;
  $("moves").textContent = String(moves);
  const seconds = shownTime() / 1000;
  $("tps").textContent = seconds > 0 ? (moves / seconds).toFixed(2) : "0.00";
}

function shownTime() {
  if (S.phase === "running") return performance.now() - S.t0;
  if (S.phase === "replay" && S.replay && S.replay.times) return S.replay.times[S.replay.step - 1] || 0;
  return S.elapsed;
}

function formatTime(ms) {
  const s = ms / 1000;
  return s < 60 ? s.toFixed(3) : Math.floor(s / 60) + ":" + (s % 60).toFixed(3).padStart(6, "0");
}

function tick() {
  $("timer").textContent = formatTime(shownTime());
  if (S.phase === "running") { showCount(); S.frame = requestAnimationFrame(tick); } else S.frame = null;
}

function notice(text, error) {
  $("notice").textContent = text;
  $("notice").classList.toggle("error", Boolean(error));
}

function say(id, text, error) {
  $(id).textContent = text;
  $(id).classList.toggle("error", Boolean(error));
}

// -- an attempt: scramble, inspection, timer, moves, undo ----------------------------------------

function setShape(h, w) {
  const rebuild = h !== S.h || w !== S.w || S.els.length !== h * w;
  S.h = h; S.w = w;
  $("rows").value = String(h); $("cols").value = String(w);
  $("session-size").textContent = h + "x" + w;
  if (rebuild) build();
}

// Start an attempt from `tiles`: timed if it is not solved (inspection first), else free play.
function startAttempt(h, w, tiles, kind) {
  stopPlaying();
  closeReplay();
  S.tiles = tiles.slice(); setShape(h, w);
  S.start = tiles.slice(); S.kind = kind;
  S.log = []; S.redo = []; S.undos = 0; S.elapsed = 0;
  setPhase(isGoal() ? "free" : "inspect");
  render();
  tick();
}

function setPhase(phase) {
  S.phase = phase;
  clearTimeout(S.inspectTimer);
  const inspect = Number($("inspection").value);
  const text = {
    inspect: inspect ? `Inspection: ${inspect} s, or your first move starts the timer.` :
      "Inspect the board: the timer starts at your first move.",
    running: "", done: "", free: "Free play: not timed. New scramble to time a solve.",
    replay: "Replay: use the controls below, or move a tile to play from here.",
  }[phase];
  $("phase").textContent = text;
  if (phase === "inspect" && inspect) {
    const until = performance.now() + inspect * 1000;
    const count = () => {
      if (S.phase !== "inspect") return;
      const left = until - performance.now();
      if (left <= 0) { startTimer(); return; }
      $("phase").textContent = `Inspection: ${Math.ceil(left / 1000)} s left, or move to start.`;
      S.inspectTimer = setTimeout(count, 200);
    };
    count();
  }
}

function startTimer() {
  setPhase("running");
  S.t0 = performance.now();
  if (!S.frame) S.frame = requestAnimationFrame(tick);
}

// The user's moves: each letter slides one tile; a letter with no tile to slide ends the list.
function userLetters(letters) {
  if (S.phase === "replay") leaveReplay();
  let moved = 0;
  for (const letter of letters) {
    const tile = tileFor(letter);
    if (tile === null) break;
    if (S.phase === "inspect") startTimer();
    if (S.phase === "done") setPhase("free");
    swap(S.tiles, tile);
    S.log.push({ tile, letter, t: S.phase === "running" ? Math.round(performance.now() - S.t0) : null });
    moved++;
  }
  if (!moved) return 0;
  S.redo = [];
  finishMoves();
  return moved;
}

function finishMoves() {
  if (S.phase === "running" && isGoal()) solved();
  render();
}

function undo() {
  if (S.phase === "replay") { stepTo(S.replay.step - 1); return; }
  const last = S.log.pop();
  if (!last) return;
  swap(S.tiles, last.tile);
  S.redo.push(last); S.undos++;
  if (S.phase === "done") setPhase("free");
  render();
}

function redo() {
  if (S.phase === "replay") { stepTo(S.replay.step + 1); return; }
  const next = S.redo.pop();
  if (!next) return;
  swap(S.tiles, next.tile);
  S.log.push({ tile: next.tile, letter: next.letter, t: S.phase === "running" ? Math.round(performance.now() - S.t0) : null });
  finishMoves();
}

function reset() {
  if (S.replay) { stepTo(0); return; }
  startAttempt(S.h, S.w, S.start, S.kind);
  notice("");
}

// Leave a replay for play from the board as it is: timed if it is the replay's start.
function leaveReplay() {
  const atStart = S.replay && S.replay.step === 0 && !isGoal();
  stopPlaying();
  const tiles = S.tiles.slice(), kind = S.replay ? S.replay.kind || "link" : S.kind;
  closeReplay();
  S.start = tiles; S.kind = atStart ? kind : "free";
  S.log = []; S.redo = []; S.undos = 0; S.elapsed = 0;
  setPhase(atStart ? "inspect" : "free");
}

async function newScramble() {
  const seq = ++S.scrambleSeq;
  const h = Number($("rows").value), w = Number($("cols").value), walk = $("walk").value;
  const query = new URLSearchParams({ shape: h + "x" + w, goal: S.goal });
  if (walk) query.set("walk", walk);
  if (h !== S.h || w !== S.w) startAttempt(h, w, goalTiles(h, w, S.goal), "solved");   // at once, then the scramble
  const { ok, record } = await api("GET", "/api/scramble?" + query);
  if (seq !== S.scrambleSeq) return;
  if (!ok) { notice("No scramble: " + record.reason, true); return; }
  notice(walk ? `Random walk of ${walk} moves (not a random state).` : "");
  startAttempt(record.height, record.width, record.tiles, walk ? "walk " + walk : "random");
}

// -- the session: solves kept in this browser ----------------------------------------------------

function solved() {
  const ms = S.log[S.log.length - 1].t;   // the time of the last move
  S.elapsed = ms;
  setPhase("done");
  const letters = S.log.map((m) => m.letter).join("");
  const solve = {
    size: S.h + "x" + S.w, goal: S.goal, kind: S.kind, date: new Date().toISOString(), time: ms,
    moves: S.log.length, tps: Number((S.log.length / Math.max(ms, 1) * 1000).toFixed(3)), undos: S.undos,
    scramble: S.start.join("."), solution: letters, times: S.log.map((m) => m.t),
  };
  const all = loadSolves();
  const before = stats(all, solve.size);
  all.push(solve);
  saveSolves(all);
  const best = solve.kind === "random" && (before.best.single === null || ms < before.best.single);
  $("board").classList.remove("celebrate"); void $("board").offsetWidth; $("board").classList.add("celebrate");
  notice(`Solved in ${formatTime(ms)} s, ${solve.moves} moves, ${solve.tps.toFixed(2)} moves/s` +
         (best ? " — a new best!" : "") + (S.undos ? ` (${S.undos} undone)` : ""));
  showSession();
  tick();
  openReplay({ start: S.start, letters, times: solve.times, title: "Your solve", kind: "retry", step: letters.length });
  analyseSolve(S.start, letters);
}

function loadSolves() {
  try {
    const all = JSON.parse(localStorage.getItem(STORE) || "[]");
    return Array.isArray(all) ? all.filter((s) => s && typeof s.time === "number") : [];
  } catch (e) { return []; }
}

function saveSolves(all) {
  try { localStorage.setItem(STORE, JSON.stringify(all.slice(-5000))); } catch (e) { notice("This browser keeps no solves (storage is full or off).", true); }
}

// The average of n, the best and worst left out (5% of each side from ao50 on); null if too few.
function average(times) {
  const n = times.length, cut = n < 50 ? 1 : Math.ceil(n * 0.05);
  const kept = times.slice().sort((a, b) => a - b).slice(cut, n - cut);
  return kept.reduce((a, b) => a + b, 0) / kept.length;
}

function stats(all, size) {
  const times = all.filter((s) => s.size === size && s.kind === "random").map((s) => s.time);
  const out = { count: times.length, now: {}, best: { single: times.length ? Math.min(...times) : null } };
  out.now.single = times.length ? times[times.length - 1] : null;
  for (const n of [5, 12, 50, 100]) {
    out.now["ao" + n] = times.length >= n ? average(times.slice(-n)) : null;
    let best = null;
    for (let i = n; i <= times.length; i++) {
      const a = average(times.slice(i - n, i));
      if (best === null || a < best) best = a;
    }
    out.best["ao" + n] = best;
  }
  return out;
}

function showSession() {
  const size = S.h + "x" + S.w, all = loadSolves(), st = stats(all, size);
  const cell = (v) => (v === null || v === undefined ? "–" : formatTime(v));
  const rows = ["single", "ao5", "ao12", "ao50", "ao100"].map((k) => {
    const tr = document.createElement("tr");
    tr.id = "avg-" + k;
    const th = document.createElement("th"); th.scope = "row"; th.textContent = k;
    const now = document.createElement("td"); now.textContent = cell(st.now[k]);
    const best = document.createElement("td"); best.textContent = cell(st.best[k]);
    tr.append(th, now, best);
    return tr;
  });
  $("averages").tBodies[0].replaceChildren(...rows);
  const mine = all.filter((s) => s.size === size).slice(-12).reverse();
  $("solves").replaceChildren(...mine.map((s) => {
    const li = document.createElement("li"), b = document.createElement("button");
    b.type = "button";
    b.textContent = `${formatTime(s.time)} s · ${s.moves} moves · ${s.tps.toFixed(2)}/s` + (s.kind !== "random" ? ` · ${s.kind}` : "");
    b.addEventListener("click", () => replaySolve(s));
    li.appendChild(b);
    return li;
  }));
  $("session-size").textContent = size + (st.count ? ` · ${st.count} random-state solves` : "");
}

function replaySolve(s) {
  const [h, w] = s.size.split("x").map(Number);
  S.goal = s.goal || "standard"; $("goal").value = S.goal;
  S.tiles = s.scramble.split(".").map(Number); setShape(h, w);
  openReplay({ start: S.tiles, letters: s.solution, times: s.times, title: `Solve of ${formatTime(s.time)} s`, kind: "retry", step: 0 });
  analyseSolve(S.tiles, s.solution);
}

function download(name, type, text) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type }));
  a.download = name;
  document.body.appendChild(a); a.click(); a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

function exportCsv() {
  const cols = ["size", "goal", "kind", "date", "time", "moves", "tps", "undos", "scramble", "solution", "times"];
  const lines = [cols.map((c) => (c === "time" ? "time_ms" : c === "times" ? "times_ms" : c)).join(",")];
  for (const s of loadSolves()) lines.push(cols.map((c) => (c === "times" ? (s.times || []).join(" ") : String(s[c] ?? ""))).join(","));
  download("npuzzle-solves.csv", "text/csv", lines.join("\n") + "\n");
}

// -- replays -------------------------------------------------------------------------------------

// Show a replay of `letters` from `start` (the board must have the replay's shape).
function openReplay({ start, letters, times, title, kind, step }) {
  stopPlaying();
  const tiles = start.slice(), moves = [];
  for (const letter of letters) { const t = tileFor(letter, tiles); swap(tiles, t); moves.push(t); }
  S.replay = { start: start.slice(), moves, letters, times: times && times.length === moves.length && times.every(Number.isFinite) ? times : null,
               step: 0, title, kind };
  S.tiles = start.slice();
  if (S.phase !== "done") S.elapsed = 0;
  S.phase = "replay";
  setPhase("replay");
  $("player").hidden = false;
  $("player-title").textContent = title;
  $("scrub").max = String(moves.length);
  $("steps").textContent = String(moves.length);
  $("speed").options[0].disabled = !S.replay.times;
  if (!S.replay.times && $("speed").value === "real") $("speed").value = "5";
  stepTo(step || 0);
}

function closeReplay() {
  S.replay = null;
  $("player").hidden = true;
}

function stepTo(k) {
  const r = S.replay;
  if (!r) return;
  k = Math.max(0, Math.min(r.moves.length, k));
  if (Math.abs(k - r.step) > 1 || S.tiles.indexOf(0) < 0) {
    S.tiles = r.start.slice();
    for (let i = 0; i < k; i++) swap(S.tiles, r.moves[i]);
  } else if (k === r.step + 1) swap(S.tiles, r.moves[r.step]);
  else if (k === r.step - 1) swap(S.tiles, r.moves[k]);
  r.step = k;
  $("step").textContent = String(k);
  $("scrub").value = String(k);
  const before = r.letters.slice(Math.max(0, k - 60), k), after = r.letters.slice(k, k + 60);
  const mark = document.createElement("mark"); mark.textContent = "|";
  $("letters").replaceChildren((k > 60 ? "…" : "") + before, mark, after + (k + 60 < r.letters.length ? "…" : ""));
  $("letters").title = r.letters;
  $("play").textContent = S.playing ? "❚❚ pause" : "▶ play";
  markPlot(k);
  render();
  $("timer").textContent = formatTime(shownTime());
}

function play() {
  const r = S.replay;
  if (!r) return;
  if (S.playing) { stopPlaying(); return; }
  if (r.step >= r.moves.length) stepTo(0);
  const next = () => {
    if (!S.replay || r.step >= r.moves.length) { stopPlaying(); return; }
    const real = $("speed").value === "real" && r.times;
    const wait = real ? (r.step === 0 ? 300 : r.times[r.step] - r.times[r.step - 1]) : 1000 / Number($("speed").value);
    S.playing = setTimeout(() => { stepTo(r.step + 1); next(); }, Math.max(0, wait));
  };
  S.playing = -1;
  next();
  $("play").textContent = "❚❚ pause";
}

function stopPlaying() {
  if (S.playing) clearTimeout(S.playing);
  S.playing = null;
  $("play").textContent = "▶ play";
}

// -- pointer: tap a tile to move its line, drag a line, swipe anywhere on the board ---------------

function lineOf(tile) {
  const t = S.tiles.indexOf(tile), b = S.tiles.indexOf(0);
  const tr = Math.floor(t / S.w), tc = t % S.w, br = Math.floor(b / S.w), bc = b % S.w;
  if (tr !== br && tc !== bc) return null;
  const letter = tr === br ? (tc > bc ? "L" : "R") : (tr > br ? "U" : "D");
  const count = Math.abs(tr - br) + Math.abs(tc - bc), tiles = [], copy = S.tiles.slice();
  for (let i = 0; i < count; i++) { const x = tileFor(letter, copy); tiles.push(x); swap(copy, x); }
  return { letter, count, tiles, axis: tr === br ? "x" : "y", sign: { L: -1, R: 1, U: -1, D: 1 }[letter] };
}

function pointerDown(e) {
  if (e.pointerType === "mouse" && e.button !== 0) return;
  const el = e.target.closest(".tile");
  const line = el ? lineOf(Number(el.dataset.tile)) : null;
  S.drag = { id: e.pointerId, x0: e.clientX, y0: e.clientY, line, t0: performance.now() };
  $("board").setPointerCapture(e.pointerId);
  $("board").focus({ preventScroll: true });
  e.preventDefault();
}

function pointerMove(e) {
  const d = S.drag;
  if (!d || d.id !== e.pointerId || !d.line) return;
  const along = ((d.line.axis === "x" ? e.clientX - d.x0 : e.clientY - d.y0)) * d.line.sign;
  const offset = Math.max(0, Math.min(S.cell, along));
  for (const t of d.line.tiles) {
    const i = S.tiles.indexOf(t), el = S.els[t];
    const x = S.pad + (i % S.w) * S.cell + (d.line.axis === "x" ? offset * d.line.sign : 0);
    const y = S.pad + Math.floor(i / S.w) * S.cell + (d.line.axis === "y" ? offset * d.line.sign : 0);
    el.classList.add("held");
    el.style.transform = `translate(${x}px, ${y}px)`;
  }
}

function pointerUp(e) {
  const d = S.drag;
  if (!d || d.id !== e.pointerId) return;
  S.drag = null;
  for (const el of $("board").querySelectorAll(".held")) el.classList.remove("held");
  if (e.type === "pointercancel") { render(); return; }
  const dx = e.clientX - d.x0, dy = e.clientY - d.y0, dist = Math.hypot(dx, dy);
  const fast = dist / Math.max(performance.now() - d.t0, 1) > 0.4;
  if (d.line) {
    const along = (d.line.axis === "x" ? dx : dy) * d.line.sign, across = d.line.axis === "x" ? dy : dx;
    if (dist < 8 || (along >= Math.abs(across) && (along > S.cell * 0.3 || (fast && along > 12)))) {
      userLetters(d.line.letter.repeat(d.line.count));
      return;
    }
    if (Math.abs(across) <= Math.abs(along)) { render(); return; }   // a drag let go short: back
  }
  if (dist >= 20) {
    const letter = Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? "R" : "L") : (dy > 0 ? "D" : "U");
    if (userLetters(letter)) return;
  }
  render();
}

function keyDown(e) {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const typing = e.target.closest("textarea, input, select");
  const arrow = { ArrowLeft: "L", ArrowRight: "R", ArrowUp: "U", ArrowDown: "D" }[e.key];
  if (arrow) {
    if (typing) return;
    e.preventDefault();
    userLetters($("keys").value === "blank" ? OPPOSITE[arrow] : arrow);
    return;
  }
  if (typing || e.target.closest("button, a")) return;
  const action = { " ": newScramble, z: undo, y: redo, Z: redo, Escape: reset, p: play,
                   ",": () => stepTo(S.replay ? S.replay.step - 1 : 0), ".": () => stepTo(S.replay ? S.replay.step + 1 : 0) }[e.key];
  if (action) { e.preventDefault(); action(); }
}

// -- the API -------------------------------------------------------------------------------------

async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try { response = await fetch(path, options); } catch (e) {
    return { ok: false, status: 0, record: { reason: "the server cannot be reached" } };
  }
  let record;
  try { record = await response.json(); } catch (e) { record = { reason: "HTTP " + response.status }; }
  return { ok: response.ok, status: response.status, record };
}

function scheduleCheck() {
  clearTimeout(S.checkTimer);
  if (S.phase === "running") return;
  S.checkTimer = setTimeout(check, 300);
}

async function check() {
  const seq = ++S.checkSeq;
  const { ok, record } = await api("POST", "/api/check", { position: rowsText(S.tiles), goal: S.goal });
  if (seq === S.checkSeq) $("bounds").textContent = ok ? record.text : record.reason;
}

// A job of the server's workers, followed to its end (`show` gets each state).
async function job(path, body, show) {
  const first = await api("POST", path, body);
  if (!first.ok) return { error: first.record.reason };
  let record = first.record;
  if (record.record !== "job") return { result: record };
  S.job = record.id;
  while (record && !["done", "failed", "cancelled"].includes(record.state) && S.job === record.id) {
    show(record);
    const answer = await api("GET", "/api/solve/" + record.id + "?wait=1");
    if (!answer.ok) return { error: answer.record.reason };
    record = answer.record;
  }
  if (S.job === record.id) S.job = null;
  if (record.state === "done") return { result: record.result };
  return { error: record.state === "failed" ? record.reason || record.text : "cancelled" };
}

// -- the solver ----------------------------------------------------------------------------------

async function solve() {
  if (S.job) return;
  stopPlaying();
  const start = S.tiles.slice();
  say("outcome", ""); $("how").textContent = "";
  $("solve").disabled = true; $("cancel").hidden = false;
  const { result, error } = await job("/api/solve", { position: rowsText(start), goal: S.goal, method: $("method").value },
                                      (r) => say("status", r.text));
  $("solve").disabled = false; $("cancel").hidden = true; say("status", "");
  if (error) { say("outcome", error, error !== "cancelled"); return; }
  say("outcome", result.outcome, result.status !== "solved");
  $("how").textContent = result.how;
  if (result.status !== "solved") return;
  if (S.phase !== "replay") leaveReplay();
  openReplay({ start, letters: result.letters, times: null, title: "Solver: " + result.outcome, kind: "free", step: 0 });
}

async function cancel() {
  const id = S.job;
  if (!id) return;
  S.job = null;
  await api("DELETE", "/api/solve/" + id);
  $("solve").disabled = false; $("cancel").hidden = true; say("status", ""); say("outcome", "cancelled");
}

// -- analysis ------------------------------------------------------------------------------------

// Fill the analysis panel with a solve; analysed at once up to 16 cells (optimal distances,
// quick), on request beyond (a lower bound and a near-optimal solution: seconds of a worker).
function analyseSolve(start, letters) {
  $("an-position").value = rowsText(start);
  $("an-moves").value = compactMoves(letters);
  $("an-convention").value = "tile";
  if (S.h * S.w <= 16) analyse();
  else say("an-message", "Analyse compares your solve with a lower bound and a near-optimal solution (some seconds).");
}

async function analyse(extra) {
  const position = $("an-position").value.trim(), moves = $("an-moves").value.trim();
  if (!position) { say("an-message", "Paste a scramble first (any notation).", true); $("an-position").focus(); return null; }
  say("an-message", extra ? "Finding every optimal solution…" : "Analysing…");
  const body = { position, moves, goal: S.goal, convention: $("an-convention").value, all_optimal: extra || 0 };
  const { result, error } = await job("/api/analyze", body, (r) => say("an-message", r.text));
  if (error) { say("an-message", error, true); return null; }
  say("an-message", "");
  if (!extra) showAnalysis(result);
  return result;
}

// The analysed moves as letters (the record's `letters`; its `moves` are the tiles pushed).
const lettersOf = (a) => (typeof a.letters === "string" ? a.letters : a.moves.join(""));
const startOf = (a) => a.tiles || a.position.split(/[\s/]+/).map(Number);

function showAnalysis(a) {
  const [h, w] = String(a.shape).split("x").map(Number);
  S.analysis = { record: a, h, w, letters: lettersOf(a) };
  $("an-result").hidden = false;
  const best = a.exact ? `optimal: ${a.start_distance}` + (a.solved ? ` — ${a.length - a.start_distance} moves over` : "")
    : `optimal: at least ${a.start_distance} (a lower bound, not proven optimal)` +
      (Number.isFinite(a.near_optimal) ? `; a near-optimal solution has ${a.near_optimal}` : "");
  $("an-summary").textContent = `Your solution: ${a.length} moves${a.solved ? "" : " (it does not reach the goal)"}; ` +
    `${best}. Moves/MD ${a.moves_per_md == null ? "–" : Number(a.moves_per_md).toFixed(2)}. ` +
    (a.exact ? `${a.mistakes.length} mistake${a.mistakes.length === 1 ? "" : "s"}.` : "Mistakes need optimal distances (boards of at most 16 cells).");
  plot(a);
  $("an-caption").textContent = a.exact ? "The optimal distance to the goal after each move (dashed: the best possible)."
    : "A lower bound of the distance to the goal after each move (not the optimal distance).";
  $("an-mistakes-part").hidden = !a.exact;
  $("an-mistakes").replaceChildren(...a.mistakes.map((m) => {
    const li = document.createElement("li"), b = document.createElement("button");
    b.type = "button";
    b.textContent = `move ${m.index + 1}: ${m.move}, distance ${m.distance_before} → ${m.distance_after}; better: ${m.better.join(" ") || "–"}`;
    b.addEventListener("click", () => showMistake(m));
    li.appendChild(b);
    return li;
  }));
  if (!a.mistakes.length && a.exact) $("an-mistakes").replaceChildren(Object.assign(document.createElement("li"), { textContent: "none: every move brought the goal closer" }));
  $("an-all").disabled = h * w > 16;
  $("an-all").title = h * w > 16 ? "only for boards of up to 16 cells (3x3, 4x4, ...)" : "";
  $("an-extra").textContent = "";
}

// The replay of the analysed solve at step k (opened if it is not the one on the board).
function showAnalysed(k) {
  const a = S.analysis.record, letters = S.analysis.letters;
  if (!S.replay || S.replay.letters !== letters) {
    const start = startOf(a);
    if (S.h !== S.analysis.h || S.w !== S.analysis.w) { S.tiles = start.slice(); setShape(S.analysis.h, S.analysis.w); }
    openReplay({ start, letters, times: null, title: "Analysed solve", kind: "free", step: k });
  } else { stopPlaying(); stepTo(k); }
}

// The board before a mistake.
function showMistake(m) {
  showAnalysed(m.index);
  notice(`Before move ${m.index + 1}: you played ${m.move}; ${m.better.join(" or ")} brings the goal closer.`);
  $("board").scrollIntoView({ block: "nearest" });
}

function plot(a) {
  const d = a.distances, n = d.length - 1, top = Math.max(...d, 1);
  const W = 320, H = 120, L = 28, B = 18, x = (i) => L + (i / Math.max(n, 1)) * (W - L - 6), y = (v) => 6 + (1 - v / top) * (H - B - 6);
  const line = d.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  const ideal = `${x(0)},${y(d[0])} ${x(Math.min(d[0], n))},${y(Math.max(0, d[0] - n))}`;
  const dots = a.mistakes.map((m) => `<circle class="miss" cx="${x(m.index + 1).toFixed(1)}" cy="${y(d[m.index + 1]).toFixed(1)}" r="3"/>`).join("");
  $("an-plot").innerHTML = `<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="optimal distance after each move: from ${d[0]} to ${d[n]} in ${n} moves">` +
    `<line class="axis" x1="${L}" y1="${H - B}" x2="${W - 4}" y2="${H - B}"/><line class="axis" x1="${L}" y1="4" x2="${L}" y2="${H - B}"/>` +
    `<text x="${L - 4}" y="12" text-anchor="end">${top}</text><text x="${L - 4}" y="${H - B}" text-anchor="end">0</text>` +
    `<text x="${W - 4}" y="${H - 4}" text-anchor="end">move ${n}</text><text x="${L}" y="${H - 4}">0</text>` +
    `<polyline class="ideal" points="${ideal}"/><polyline class="dist" points="${line}"/>${dots}` +
    `<line id="an-mark" class="mark" x1="0" y1="4" x2="0" y2="${H - B}" visibility="hidden"/></svg>`;
  S.analysis.x = x;
  markPlot(S.replay ? S.replay.step : 0);
}

function markPlot(k) {
  const mark = $("an-mark");
  if (!mark || !S.analysis) return;
  const same = S.replay && S.replay.letters === S.analysis.letters;
  mark.setAttribute("visibility", same ? "visible" : "hidden");
  if (same) { mark.setAttribute("x1", S.analysis.x(k).toFixed(1)); mark.setAttribute("x2", S.analysis.x(k).toFixed(1)); }
}

async function optimalFromHere() {
  if (S.analysis && (!S.replay || S.replay.letters !== S.analysis.letters)) showAnalysed(0);
  const step = S.replay ? S.replay.step : S.log.length;
  $("an-extra").textContent = "Solving…";
  const { result, error } = await job("/api/solve", { position: rowsText(S.tiles), goal: S.goal, method: "auto" },
                                      (r) => { $("an-extra").textContent = r.text; });
  if (error) { say("an-extra", error, true); return; }
  say("an-extra", `From step ${step}: ${result.outcome}: ${result.status === "solved" ? compactMoves(result.letters) || "(solved)" : ""}`);
}

async function allOptimal() {
  const a = await analyse(50);
  if (!a) return;
  const all = a.all_optimal || { count: 0, solutions: [] };
  say("an-extra", `${all.count} optimal solution${all.count === 1 ? "" : "s"} of ${a.start_distance} moves` +
      (all.solutions.length < all.count ? ` (the first ${all.solutions.length})` : "") + ":\n" +
      all.solutions.map((s) => (Array.isArray(s) ? s.join("") : s)).join("\n"));
}

async function loadAnalysed() {
  const a = await analyse();
  if (!a) return;
  const start = startOf(a);
  const [h, w] = String(a.shape).split("x").map(Number);
  S.tiles = start.slice(); setShape(h, w);
  openReplay({ start, letters: lettersOf(a), times: null, title: "Pasted solve", kind: "free", step: 0 });
}

// -- links: #4x4/1.5.0.2.…/URDL2…/t=0.120.95… (goal=blank-first optional) --------------------------

function hashNow() {
  const r = S.replay, start = r ? r.start : S.start;
  const letters = r ? r.letters : S.log.map((m) => m.letter).join("");
  const times = r ? r.times : (S.log.length && S.log.every((m) => m.t !== null) ? S.log.map((m) => m.t) : null);
  let hash = "#" + S.h + "x" + S.w + "/" + start.join(".");
  if (S.goal !== "standard") hash += "/goal=" + S.goal;
  if (letters) hash += "/" + compactMoves(letters);
  if (letters && times) hash += "/t=" + times.map((t, i) => t - (i ? times[i - 1] : 0)).join(".");
  return hash;
}

function scheduleHash() {
  if (S.hashTimer) return;
  S.hashTimer = setTimeout(() => {
    S.hashTimer = null;
    if (!S.start.length) return;
    const hash = hashNow();
    if (location.hash !== hash) history.replaceState(null, "", hash);
    $("share-url").value = location.href;
  }, 250);
}

// Read a link; null if it holds none, else {h, w, goal, tiles, letters, times, error}.
function readLink(hash) {
  const parts = hash.replace(/^#/, "").split("/").filter(Boolean);
  if (!parts.length || parts[0].startsWith("p=")) return null;
  const shape = /^(\d{1,2})x(\d{1,2})$/.exec(parts[0]);
  if (!shape) return { error: `“${parts[0].slice(0, 20)}” is no board size (such as 4x4)` };
  const h = Number(shape[1]), w = Number(shape[2]);
  if (h < MIN_SIDE || w < MIN_SIDE || h > MAX_SIDE || w > MAX_SIDE) return { error: `the page plays boards of ${MIN_SIDE}x${MIN_SIDE} to ${MAX_SIDE}x${MAX_SIDE}, not ${h}x${w}` };
  const out = { h, w, goal: "standard", letters: "", times: null };
  const tiles = (parts[1] || "").split(".").map((x) => (/^\d+$/.test(x) ? Number(x) : NaN));
  const n = h * w;
  if (tiles.length !== n || tiles.some(Number.isNaN)) return { ...out, error: `a ${h}x${w} position is ${n} numbers joined by dots; the link has “${(parts[1] || "").slice(0, 40)}”` };
  const dup = tiles.find((t, i) => tiles.indexOf(t) !== i), big = tiles.find((t) => t >= n);
  if (big !== undefined) return { ...out, error: `tile ${big} is too big for a ${h}x${w} board` };
  if (dup !== undefined) return { ...out, error: `tile ${dup} is twice in the link's position` };
  out.tiles = tiles;
  for (const part of parts.slice(2)) {
    if (part.startsWith("goal=")) out.goal = part.slice(5) === "blank-first" ? "blank-first" : "standard";
    else if (part.startsWith("t=")) out.times = part.slice(2).split(".").map(Number);
    else {
      const letters = expandMoves(part);
      if (letters === null) return { ...out, error: `“${part.slice(0, 30)}” are no moves (letters U D L R, with repeat counts)` };
      out.letters = letters;
    }
  }
  if (!solvable(tiles, h, w, out.goal)) return { ...out, tiles: null, error: `the link's position cannot reach the ${out.goal} goal (wrong parity)` };
  if (out.times) {
    let sum = 0;
    out.times = out.times.map((d) => (sum += d));
    if (out.times.length !== out.letters.length || out.times.some((t) => !Number.isFinite(t))) { out.times = null; out.warning = "its move times do not match its moves: replayed at a constant rate"; }
  }
  return out;
}

async function opened() {
  if (location.hash.startsWith("#p=")) return openedOld();
  let hash = location.hash;
  try { hash = decodeURIComponent(hash); } catch (e) { /* read as it is */ }
  const link = readLink(hash);
  if (link === null) return false;
  if (link.error && !link.tiles) {
    await newScramble();
    notice(`This link cannot be opened: ${link.error}. Here is a new scramble.`, true);
    return true;
  }
  S.goal = link.goal; $("goal").value = link.goal;
  S.tiles = link.tiles.slice(); setShape(link.h, link.w);
  let letters = link.letters, problem = link.error || link.warning || "";
  const copy = link.tiles.slice();
  for (let i = 0; i < letters.length; i++) {
    const t = tileFor(letters[i], copy);
    if (t === null) { problem = `move ${i + 1} of the link (${letters[i]}) has no tile to slide: the replay stops before it`; letters = letters.slice(0, i); break; }
    swap(copy, t);
  }
  if (letters) openReplay({ start: link.tiles, letters, times: link.times && link.times.slice(0, letters.length), title: "Shared solve", kind: "link", step: 0 });
  else startAttempt(link.h, link.w, link.tiles, "link");
  notice(problem ? "This link: " + problem + "." : letters ? `A shared solve of ${letters.length} moves: ▶ play to watch it.` : "", Boolean(problem));
  return true;
}

// Links of earlier versions: #p=8,6,7/2,5,4/3,0,1&g=blank-first&s=LURD.
async function openedOld() {
  const params = new URLSearchParams(location.hash.slice(1));
  const goal = params.get("g") === "blank-first" ? "blank-first" : "standard";
  const { ok, record } = await api("POST", "/api/check", { position: (params.get("p") || "").replaceAll(",", " "), goal });
  if (!ok || !record.solvable) {
    await newScramble();
    notice(`This link cannot be opened: ${record.reason}. Here is a new scramble.`, true);
    return true;
  }
  S.goal = goal; $("goal").value = goal;
  const letters = expandMoves(params.get("s") || "") || "";
  history.replaceState(null, "", `#${record.height}x${record.width}/${record.tiles.join(".")}` +
                      `${goal !== "standard" ? "/goal=" + goal : ""}${letters ? "/" + letters : ""}`);
  return opened();   // in this version's form
}

// -- wiring --------------------------------------------------------------------------------------

function savePrefs() {
  const prefs = {};
  for (const id of ["walk", "slide", "scheme", "inspection", "keys", "speed", "method"]) prefs[id] = $(id).value;
  try { localStorage.setItem(PREFS, JSON.stringify(prefs)); } catch (e) { /* kept for this visit only */ }
}

function loadPrefs() {
  let prefs = {};
  try { prefs = JSON.parse(localStorage.getItem(PREFS) || "{}") || {}; } catch (e) { prefs = {}; }
  if (matchMedia("(prefers-reduced-motion: reduce)").matches && !("slide" in prefs)) prefs.slide = "0";
  for (const [id, value] of Object.entries(prefs)) {
    const el = $(id);
    if (el && [...el.options].some((o) => o.value === value)) el.value = value;
  }
  applySlide();
}

function applySlide() { document.documentElement.style.setProperty("--slide", $("slide").value + "ms"); }

async function loadText() {
  const text = $("position-text").value;
  let answer = await api("POST", "/api/check", { position: text, goal: S.goal });
  if (!answer.ok && answer.status === 400 && !/[/;\n]/.test(text.trim())) {
    const retry = await api("POST", "/api/check", { position: text, goal: S.goal, shape: S.h + "x" + S.w });
    if (retry.ok) answer = retry;
  }
  if (!answer.ok) { say("message", answer.record.reason, true); return; }
  const r = answer.record;
  if (!r.solvable) { say("message", r.reason, true); return; }
  say("message", "Loaded.");
  startAttempt(r.height, r.width, r.tiles, "loaded");
  $("board").focus({ preventScroll: true });
  $("board").scrollIntoView({ block: "nearest" });
}

function copyLink() {
  scheduleHash();
  const url = location.origin + location.pathname + hashNow();
  $("share-url").value = url;
  if (navigator.clipboard) navigator.clipboard.writeText(url).then(() => notice("Link copied."), () => {});
}

async function init() {
  for (const id of ["rows", "cols"]) {
    for (let n = MIN_SIDE; n <= MAX_SIDE; n++) $(id).add(new Option(String(n), String(n)));
    $(id).addEventListener("change", () => { newScramble(); showSession(); });
  }
  loadPrefs();
  const board = $("board");
  board.addEventListener("pointerdown", pointerDown);
  board.addEventListener("pointermove", pointerMove);
  board.addEventListener("pointerup", pointerUp);
  board.addEventListener("pointercancel", pointerUp);
  document.addEventListener("keydown", keyDown);
  const on = (id, f, what = "click") => $(id).addEventListener(what, f);
  on("scramble", () => newScramble()); on("undo", undo); on("redo", redo); on("reset", reset);
  on("goal", () => { S.goal = $("goal").value; colour(); newScramble(); }, "change");
  on("scheme", () => { colour(); savePrefs(); }, "change");
  on("slide", () => { applySlide(); savePrefs(); }, "change");
  for (const id of ["walk", "inspection", "keys", "speed", "method"]) on(id, savePrefs, "change");
  on("solve", solve); on("cancel", cancel);
  on("play", play); on("forward", () => { stopPlaying(); stepTo(S.replay.step + 1); });
  on("back", () => { stopPlaying(); stepTo(S.replay.step - 1); });
  on("first", () => { stopPlaying(); stepTo(0); }); on("last", () => { stopPlaying(); stepTo(Infinity); });
  on("scrub", () => { stopPlaying(); stepTo(Number($("scrub").value)); }, "input");
  on("export-csv", exportCsv);
  on("export-json", () => download("npuzzle-solves.json", "application/json", JSON.stringify(loadSolves(), null, 1)));
  on("clear", () => {
    const size = S.h + "x" + S.w;
    if (confirm(`Forget every ${size} solve kept in this browser?`)) { saveSolves(loadSolves().filter((s) => s.size !== size)); showSession(); }
  });
  on("analyse", () => analyse()); on("an-load", loadAnalysed); on("an-here", optimalFromHere); on("an-all", allOptimal);
  on("load", loadText); on("share", copyLink);
  window.addEventListener("hashchange", () => { if (location.hash !== hashNow()) opened(); });
  new ResizeObserver(() => {
    if ($("board-wrap").clientWidth + "x" + $("board-wrap").clientHeight !== S.room) layout();
  }).observe($("board-wrap"));
  S.tiles = goalTiles(S.h, S.w, S.goal); setShape(S.h, S.w); S.start = S.tiles.slice(); render();
  let shown = false;
  try { shown = await opened(); } catch (e) { notice("This link cannot be opened: " + e.message + ".", true); }
  if (!shown) await newScramble();
  showSession();
  document.body.dataset.ready = "1";
}

init();
