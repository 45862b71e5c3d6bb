// The board and the counters above it: the only module that draws tiles.
import { S } from "./state.mjs";
import { $ } from "./dom.mjs";
import { goalCell, isGoal, rowsText } from "./rules.mjs";
import { lineMoves } from "./moves.mjs";
import { formatTime } from "./stats.mjs";
import { scheduleCheck } from "./solver.mjs";
import { scheduleHash } from "./share.mjs";

export const solvedNow = () => isGoal(S.tiles, S.goal);

export function build() {
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
export function layout() {
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

// Where tile `t` is drawn, in cell `i`, moved `dx`, `dy` pixels (a drag).
export function put(t, i, dx = 0, dy = 0) {
  const x = S.pad + (i % S.w) * S.cell + dx, y = S.pad + Math.floor(i / S.w) * S.cell + dy;
  S.els[t].style.transform = `translate(${x}px, ${y}px)`;
}

function place() {
  S.tiles.forEach((t, i) => { if (t !== 0 && S.els[t]) put(t, i); });
}

export function colour() {
  const scheme = $("scheme").value, n = S.h * S.w;
  const groups = { fringe: Math.min(S.h, S.w), rows: S.h, columns: S.w }[scheme] || 0;
  for (let t = 1; t < S.els.length; t++) {
    const g = goalCell(t, n, S.goal), r = Math.floor(g / S.w), c = g % S.w;
    const k = scheme === "fringe" ? Math.min(r, c) : scheme === "rows" ? r : c;
    if (groups) S.els[t].style.setProperty("--hue", String(Math.round(k * 360 / groups)));
    S.els[t].classList.toggle("coloured", groups > 0);
  }
}

export function render() {
  place();
  const board = $("board");
  board.dataset.tiles = S.tiles.join(" ");
  board.classList.toggle("solved", solvedNow());
  $("board-text").textContent = S.h + " by " + S.w + " board, rows: " +
    rowsText(S.tiles, S.h, S.w).replaceAll(" 0", " blank").replace(/^0 /, "blank ");
  showCount();
  scheduleCheck();
  scheduleHash();
}

// The letters played so far: the attempt's, or the replay's up to its step.
export function playedLetters() {
  return S.phase === "replay" && S.replay ? S.replay.letters.slice(0, S.replay.step) : S.log.map((m) => m.letter).join("");
}

export function showCount() {
  const letters = playedLetters();
  $("moves").textContent = String(letters.length);
  $("mtm").textContent = String(lineMoves(letters));
  const seconds = shownTime() / 1000;
  $("tps").textContent = seconds > 0 ? (letters.length / seconds).toFixed(2) : "0.00";
}

export function shownTime() {
  if (S.phase === "running") return performance.now() - S.t0;
  if (S.phase === "replay" && S.replay && S.replay.times) return S.replay.times[S.replay.step - 1] || 0;
  return S.elapsed;
}

export function tick() {
  $("timer").textContent = formatTime(shownTime());
  if (S.phase === "running") { showCount(); S.frame = requestAnimationFrame(tick); } else S.frame = null;
}

export function celebrate() {
  const board = $("board");
  board.classList.remove("celebrate"); void board.offsetWidth; board.classList.add("celebrate");
}
