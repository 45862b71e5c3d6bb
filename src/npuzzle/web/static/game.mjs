// An attempt: the board dealt, inspection, the timer, moves, undo and redo, and its end (solved,
// or given up: a DNF).
import { S, size } from "./state.mjs";
import { $, notice, say } from "./dom.mjs";
import { goalTiles } from "./rules.mjs";
import { lineMoves, push, tileFor } from "./moves.mjs";
import { formatTime, isNewBest, plural, summary } from "./stats.mjs";
import { api } from "./api.mjs";
import { build, celebrate, render, solvedNow, tick } from "./board.mjs";
import { closeReplay, openReplay, stepTo, stopPlaying } from "./replay.mjs";
import { addSolve, loadSolves, showSession } from "./solves.mjs";
import { analyseSolve, clearAnalysis } from "./analysis.mjs";
import { clearSolver } from "./solver.mjs";

// The board's shape; a new shape redraws it, and the cards that spoke of another board forget it.
export function setShape(h, w) {
  const changed = h !== S.h || w !== S.w;
  S.h = h; S.w = w;
  $("rows").value = String(h); $("cols").value = String(w);
  if (changed || S.els.length !== h * w) build();
  if (changed) {
    clearSolver();
    if (S.analysis && (S.analysis.h !== h || S.analysis.w !== w)) clearAnalysis();
    showSession();
  }
}

// Start an attempt from `tiles`: timed if it is not solved (inspection first), else free play.
export function startAttempt(h, w, tiles, kind) {
  stopPlaying();
  closeReplay();
  S.board++;
  clearSolver();
  S.tiles = tiles.slice(); setShape(h, w);
  S.start = tiles.slice(); S.kind = kind;
  S.log = []; S.redo = []; S.undos = 0; S.elapsed = 0;
  say("result", "");
  setPhase(solvedNow() ? "free" : "inspect");
  render();
  tick();
}

export function setPhase(phase) {
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

const now = () => (S.phase === "running" ? Math.round(performance.now() - S.t0) : null);

// The user's moves: each letter slides one tile; a letter with no tile to slide ends the list.
export function userLetters(letters) {
  if (S.phase === "replay") leaveReplay();
  let moved = 0;
  for (const letter of letters) {
    const tile = tileFor(letter, S.tiles, S.h, S.w);
    if (tile === null) break;
    if (S.phase === "inspect") startTimer();
    if (S.phase === "done") setPhase("free");
    push(S.tiles, tile);
    S.log.push({ tile, letter, t: now() });
    moved++;
  }
  if (!moved) return 0;
  S.redo = [];
  finishMoves();
  return moved;
}

function finishMoves() {
  if (S.phase === "running" && solvedNow()) solved();
  render();
}

export function undo() {
  if (S.phase === "replay") { stepTo(S.replay.step - 1); return; }
  const last = S.log.pop();
  if (!last) return;
  push(S.tiles, last.tile);
  S.redo.push(last); S.undos++;
  if (S.phase === "done") setPhase("free");
  render();
}

export function redo() {
  if (S.phase === "replay") { stepTo(S.replay.step + 1); return; }
  const next = S.redo.pop();
  if (!next) return;
  push(S.tiles, next.tile);
  S.log.push({ tile: next.tile, letter: next.letter, t: now() });
  finishMoves();
}

export function reset() {
  if (S.replay) { stepTo(0); return; }
  startAttempt(S.h, S.w, S.start, S.kind);
  notice("");
}

// Leave a replay for play from the board as it is: timed if it is the replay's start.
export function leaveReplay() {
  const atStart = S.replay && S.replay.step === 0 && !solvedNow();
  stopPlaying();
  const tiles = S.tiles.slice(), kind = S.replay ? S.replay.kind || "link" : S.kind;
  closeReplay();
  S.start = tiles; S.kind = atStart ? kind : "free";
  S.log = []; S.redo = []; S.undos = 0; S.elapsed = 0;
  setPhase(atStart ? "inspect" : "free");
}

export async function newScramble() {
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

// The attempt's record, ended at `ms` (solved, or given up: `dnf`).
function record(ms, dnf) {
  const letters = S.log.map((m) => m.letter).join("");
  return {
    size: size(), goal: S.goal, kind: S.kind, date: new Date().toISOString(), time: ms, dnf,
    moves: S.log.length, mtm: lineMoves(letters), tps: Number((S.log.length / Math.max(ms, 1) * 1000).toFixed(3)),
    undos: S.undos, scramble: S.start.join("."), solution: letters, times: S.log.map((m) => m.t),
  };
}

function solved() {
  const ms = S.log[S.log.length - 1].t;   // the time of the last move
  S.elapsed = ms;
  setPhase("done");
  const solve = record(ms, false);
  const before = summary(loadSolves(), solve.size);
  addSolve(solve);
  const random = solve.kind === "random";
  const best = random && isNewBest(before.time.best.single, ms);
  const first = random && typeof before.time.best.single !== "number";   // no solve of this size before (DNFs aside)
  celebrate();
  notice(`Solved in ${formatTime(ms)} s, ${plural(solve.moves, "move")} (${solve.mtm} line), ${solve.tps.toFixed(2)} moves/s` +
         (best ? " — a new best!" : first ? ` — your first ${solve.size} solve here` : "") +
         (S.undos ? ` (${S.undos} undone)` : ""));
  showSession();
  tick();
  openReplay({ start: S.start, letters: solve.solution, times: solve.times, title: "Your solve", kind: "retry", step: solve.moves });
  analyseSolve(S.start, solve.solution, true);
}

// Give the timed attempt up: kept in the session as a DNF; the board stays for free play.
export function giveUp() {
  if (S.phase !== "running") return;
  const ms = Math.round(performance.now() - S.t0);
  S.elapsed = ms;
  addSolve(record(ms, true));
  S.kind = "free";
  setPhase("free");
  tick();
  notice(`DNF after ${formatTime(ms)} s and ${plural(S.log.length, "move")}: kept in the session as not finished.`);
  showSession();
}
