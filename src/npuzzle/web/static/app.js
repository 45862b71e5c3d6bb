// npuzzle's web page: a board to play, the server's solver, an animated solution, links to share.
// Every record comes from the server's JSON API (docs/json.md); nothing is fetched from other sites.
"use strict";

const $ = (id) => document.getElementById(id);
const MIN_SIDE = 2, MAX_SIDE = 10;

const state = {
  h: 3, w: 3, goal: "standard",
  tiles: [], start: [],          // the board now, and the one Reset returns to
  moves: 0, timerFrom: null, elapsed: 0,
  solution: null,                // {start, tiles: [tile pushed...], letters}
  step: 0, playing: null,
  job: null,                     // id of the running solve
  checkTimer: null, checkSeq: 0,
};

// -- the board ---------------------------------------------------------------------------------

function goalTiles(h, w, goal) {
  const n = h * w;
  const tiles = [];
  for (let i = 0; i < n; i++) tiles.push(goal === "blank-first" ? i : (i + 1) % n);
  return tiles;
}

function isGoal() {
  const g = goalTiles(state.h, state.w, state.goal);
  return state.tiles.every((t, i) => t === g[i]);
}

// The tile that a letter pushes: L slides the tile right of the blank to the left, and so on.
function tileFor(letter) {
  const b = state.tiles.indexOf(0), r = Math.floor(b / state.w), c = b % state.w;
  const [dr, dc] = { L: [0, 1], R: [0, -1], U: [1, 0], D: [-1, 0] }[letter];
  const rr = r + dr, cc = c + dc;
  if (rr < 0 || rr >= state.h || cc < 0 || cc >= state.w) return null;
  return state.tiles[rr * state.w + cc];
}

// Push a tile next to the blank (swap them); false if it is not next to it.
function push(tile) {
  const b = state.tiles.indexOf(0), t = state.tiles.indexOf(tile);
  if (t < 0 || tile === 0) return false;
  const dist = Math.abs(Math.floor(b / state.w) - Math.floor(t / state.w)) + Math.abs((b % state.w) - (t % state.w));
  if (dist !== 1) return false;
  state.tiles[b] = tile;
  state.tiles[t] = 0;
  return true;
}

function render() {
  const board = $("board");
  const cell = Math.max(24, Math.min(64, Math.floor(520 / Math.max(state.h, state.w))));
  board.style.setProperty("--cols", String(state.w));
  board.style.setProperty("--cell", cell + "px");
  const goal = goalTiles(state.h, state.w, state.goal);
  board.replaceChildren(...state.tiles.map((t, i) => {
    const el = document.createElement(t === 0 ? "div" : "button");
    el.className = t === 0 ? "cell blank" : "cell tile" + (goal[i] === t ? " home" : "");
    el.dataset.tile = String(t);
    if (t !== 0) { el.type = "button"; el.textContent = String(t); el.tabIndex = -1; }
    return el;
  }));
  board.dataset.tiles = state.tiles.join(" ");
  board.dataset.shape = state.h + "x" + state.w;
  board.classList.toggle("solved", isGoal());
  $("moves").textContent = String(state.moves);
  renderPlayer();
  scheduleCheck();
}

function rowsText(tiles) {
  const rows = [];
  for (let r = 0; r < state.h; r++) rows.push(tiles.slice(r * state.w, (r + 1) * state.w).join(" "));
  return rows.join("/");
}

function setBoard(h, w, tiles, keepSolution) {
  state.h = h; state.w = w;
  state.tiles = tiles.slice(); state.start = tiles.slice();
  state.moves = 0; state.timerFrom = null; state.elapsed = 0;
  if (!keepSolution) clearSolution();
  $("rows").value = String(h); $("cols").value = String(w);
  showTimer();
  render();
}

// -- playing -----------------------------------------------------------------------------------

function userMoves(tiles) {
  let moved = 0;
  for (const t of tiles) if (push(t)) moved++;
  if (!moved) return;
  if (state.solution) clearSolution();
  if (state.timerFrom === null && state.moves === 0) state.timerFrom = performance.now();
  state.moves += moved;
  if (isGoal() && state.timerFrom !== null) {
    state.elapsed += performance.now() - state.timerFrom;
    state.timerFrom = null;
    message("Solved in " + state.moves + " moves.");
  }
  render();
}

// A click on a tile in the blank's row or column slides every tile between them.
function clicked(event) {
  const el = event.target.closest(".tile");
  if (!el) return;
  const t = state.tiles.indexOf(Number(el.dataset.tile)), b = state.tiles.indexOf(0);
  const tr = Math.floor(t / state.w), tc = t % state.w, br = Math.floor(b / state.w), bc = b % state.w;
  if (tr !== br && tc !== bc) return;
  const letter = tr === br ? (tc > bc ? "L" : "R") : (tr > br ? "U" : "D");
  const count = Math.abs(tr - br) + Math.abs(tc - bc);
  const pushed = [];
  for (let i = 0; i < count; i++) {
    const tile = tileFor(letter);
    push(tile); pushed.push(tile);
  }
  for (let i = pushed.length - 1; i >= 0; i--) push(pushed[i]);   // undo: userMoves replays them
  userMoves(pushed);
}

function keyed(event) {
  const letter = { ArrowLeft: "L", ArrowRight: "R", ArrowUp: "U", ArrowDown: "D" }[event.key];
  if (!letter || event.target.closest("textarea, input, select")) return;
  event.preventDefault();
  const tile = tileFor(letter);
  if (tile !== null) userMoves([tile]);
}

function showTimer() {
  const ms = state.elapsed + (state.timerFrom === null ? 0 : performance.now() - state.timerFrom);
  const s = ms / 1000;
  $("timer").textContent = Math.floor(s / 60) + ":" + (s % 60).toFixed(1).padStart(4, "0");
}

function message(text, error) {
  $("message").textContent = text;
  $("message").classList.toggle("error", Boolean(error));
}

// -- the API -----------------------------------------------------------------------------------

async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (e) {
    return { ok: false, record: { reason: "the server cannot be reached" } };
  }
  let record;
  try { record = await response.json(); } catch (e) { record = { reason: "HTTP " + response.status }; }
  return { ok: response.ok, status: response.status, record };
}

function scheduleCheck() {
  clearTimeout(state.checkTimer);
  state.checkTimer = setTimeout(check, 150);
}

async function check() {
  const seq = ++state.checkSeq;
  const { ok, record } = await api("POST", "/api/check", { position: rowsText(state.tiles), goal: state.goal });
  if (seq === state.checkSeq) $("bounds").textContent = ok ? record.text : record.reason;
}

async function scramble() {
  const walk = $("walk").value;
  const query = new URLSearchParams({ shape: $("rows").value + "x" + $("cols").value, goal: state.goal });
  if (walk) query.set("walk", walk);
  const { ok, record } = await api("GET", "/api/scramble?" + query);
  if (!ok) return message(record.reason, true);
  message("");
  setBoard(record.height, record.width, record.tiles);
}

// Read a position in any notation (the server reads it; a list of numbers takes the current shape).
async function load(text, goal) {
  let answer = await api("POST", "/api/check", { position: text, goal });
  if (!answer.ok && answer.status === 400 && !/[\/;\n]/.test(text.trim())) {
    const retry = await api("POST", "/api/check", { position: text, goal, shape: state.h + "x" + state.w });
    if (retry.ok) answer = retry;
  }
  if (!answer.ok) { message(answer.record.reason, true); return false; }
  const r = answer.record;
  state.goal = goal; $("goal").value = goal;
  message(r.solvable ? "" : r.reason, !r.solvable);
  setBoard(r.height, r.width, r.tiles);
  return true;
}

// -- solving -----------------------------------------------------------------------------------

async function solve() {
  if (state.job) return;
  stopPlaying();
  const start = state.tiles.slice();
  $("outcome").textContent = ""; $("outcome").classList.remove("error"); $("how").textContent = "";
  const { ok, record } = await api("POST", "/api/solve",
    { position: rowsText(start), goal: state.goal, method: $("method").value });
  if (!ok) { showFailure(record.reason); return; }
  state.job = record.id;
  showSolving(record);
  let job = record;
  while (job && job.state !== "done" && job.state !== "failed" && job.state !== "cancelled" && state.job === record.id) {
    const answer = await api("GET", "/api/solve/" + record.id + "?wait=1");
    if (!answer.ok) { showFailure(answer.record.reason); break; }
    job = answer.record;
    showSolving(job);
  }
  if (state.job === record.id) state.job = null;
  $("solving").hidden = true; $("solve").disabled = false;
  if (!job) return;
  if (job.state === "done") finished(job.result);
  else if (job.state === "failed") showFailure(job.text);
  else if (job.state === "cancelled") $("outcome").textContent = "cancelled";
}

function showSolving(job) {
  $("solving").hidden = false; $("solve").disabled = true;
  $("status").textContent = job.text;
}

function showFailure(reason) {
  $("outcome").textContent = reason;
  $("outcome").classList.add("error");
}

async function cancel() {
  if (!state.job) return;
  const id = state.job;
  state.job = null;
  const { record } = await api("DELETE", "/api/solve/" + id);
  $("solving").hidden = true; $("solve").disabled = false;
  if (record.state === "done" && record.result) finished(record.result);
  else $("outcome").textContent = "cancelled";
}

function finished(result) {
  $("outcome").textContent = result.outcome;
  $("how").textContent = result.how;
  if (result.status !== "solved") return;
  state.solution = { start: result.tiles.slice(), tiles: result.moves.slice(), letters: result.letters,
                     h: result.height, w: result.width };
  setBoard(result.height, result.width, result.tiles, true);
  state.step = 0;
  renderPlayer();
}

// -- the animated solution ---------------------------------------------------------------------

function clearSolution() {
  stopPlaying();
  state.solution = null; state.step = 0;
  $("outcome").textContent = ""; $("how").textContent = "";
  renderPlayer();
}

function renderPlayer() {
  const s = state.solution;
  $("player").hidden = !s;
  if (!s) return;
  $("step").textContent = String(state.step);
  $("steps").textContent = String(s.tiles.length);
  $("letters").textContent = s.letters;
  $("play").textContent = state.playing ? "❚❚ pause" : "▶ play";
}

function stepForward() {
  const s = state.solution;
  if (!s || state.step >= s.tiles.length) return false;
  push(s.tiles[state.step]);
  state.step++;
  render();
  return true;
}

function stepBack() {
  const s = state.solution;
  if (!s || state.step <= 0) return;
  state.step--;
  push(s.tiles[state.step]);   // the same swap undoes the move
  render();
}

function stopPlaying() {
  if (state.playing) clearTimeout(state.playing);
  state.playing = null;
  if (state.solution) renderPlayer();
}

function play() {
  if (state.playing) { stopPlaying(); return; }
  const s = state.solution;
  if (!s) return;
  if (state.step >= s.tiles.length) {   // from the start again
    state.tiles = s.start.slice(); state.step = 0; render();
  }
  const tick = () => {
    if (!stepForward() || state.step >= s.tiles.length) { stopPlaying(); return; }
    state.playing = setTimeout(tick, 1000 / Number($("speed").value));
  };
  state.playing = setTimeout(tick, 1000 / Number($("speed").value));
  renderPlayer();
}

// -- sharing -----------------------------------------------------------------------------------

function share() {
  const params = new URLSearchParams();
  const s = state.solution && $("share-solution").checked ? state.solution : null;
  params.set("p", rowsText(s ? s.start : state.tiles).replaceAll(" ", ","));
  if (state.goal !== "standard") params.set("g", state.goal);
  if (s) params.set("s", s.letters);
  const url = location.origin + location.pathname + "#" + params.toString();
  $("share-url").value = url;
  history.replaceState(null, "", url);
  if (navigator.clipboard) navigator.clipboard.writeText(url).catch(() => {});
}

// A link holds p (the position), g (the goal) and s (a solution's letters, replayed here).
async function opened() {
  const params = new URLSearchParams(location.hash.slice(1));
  const text = params.get("p");
  if (!text) return false;
  const goal = params.get("g") === "blank-first" ? "blank-first" : "standard";
  if (!(await load(text.replaceAll(",", " "), goal))) return true;
  const letters = (params.get("s") || "").toUpperCase();
  if (letters && /^[UDLR]+$/.test(letters)) sharedSolution(letters);
  return true;
}

function sharedSolution(letters) {
  const start = state.tiles.slice(), tiles = [];
  for (const letter of letters) {
    const tile = tileFor(letter);
    if (tile === null) { state.tiles = start; message("the shared solution has an illegal move", true); return; }
    push(tile); tiles.push(tile);
  }
  const reaches = isGoal();
  state.tiles = start.slice();
  state.solution = { start, tiles, letters, h: state.h, w: state.w };
  state.step = 0;
  $("outcome").textContent = "shared solution: " + tiles.length + " moves" + (reaches ? "" : " (it does not reach the goal)");
  render();
}

// -- wiring ------------------------------------------------------------------------------------

function sizeChanged() {
  const h = Number($("rows").value), w = Number($("cols").value);
  message("");
  setBoard(h, w, goalTiles(h, w, state.goal));
}

async function init() {
  for (const id of ["rows", "cols"]) {
    for (let n = MIN_SIDE; n <= MAX_SIDE; n++) $(id).add(new Option(String(n), String(n)));
    $(id).addEventListener("change", sizeChanged);
  }
  $("goal").addEventListener("change", () => { state.goal = $("goal").value; clearSolution(); render(); });
  $("board").addEventListener("click", clicked);
  document.addEventListener("keydown", keyed);
  $("scramble").addEventListener("click", scramble);
  $("reset").addEventListener("click", () => { message(""); setBoard(state.h, state.w, state.start); });
  $("solve").addEventListener("click", solve);
  $("cancel").addEventListener("click", cancel);
  $("play").addEventListener("click", play);
  $("forward").addEventListener("click", () => { stopPlaying(); stepForward(); });
  $("back").addEventListener("click", () => { stopPlaying(); stepBack(); });
  $("speed").addEventListener("input", () => { $("speed-value").textContent = $("speed").value; });
  $("load").addEventListener("click", () => load($("position-text").value, state.goal));
  $("share").addEventListener("click", share);
  window.addEventListener("hashchange", opened);
  setInterval(showTimer, 100);
  if (!(await opened())) setBoard(3, 3, goalTiles(3, 3, "standard"));
  document.body.dataset.ready = "1";
}

init();
