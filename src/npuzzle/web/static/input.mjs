// Tiles moved by pointer (tap a tile to slide its line, drag a line, swipe anywhere on the board,
// or, as an option, a mouse that only passes over a tile) and by keys.
import { S } from "./state.mjs";
import { $ } from "./dom.mjs";
import { OPPOSITE, lineOf, play } from "./moves.mjs";
import { put, render } from "./board.mjs";
import { newScramble, redo, reset, undo, userLetters } from "./game.mjs";
import { stepTo, togglePlay } from "./replay.mjs";

// The line a tile is in: its letter, its count and the tiles it slides (null if none).
function line(tile) {
  const found = lineOf(tile, S.tiles, S.w);
  if (!found) return null;
  const letters = found.letter.repeat(found.count);
  return { ...found, letters, tiles: play(S.tiles, S.h, S.w, letters).moves,
           axis: "LR".includes(found.letter) ? "x" : "y", sign: { L: -1, R: 1, U: -1, D: 1 }[found.letter] };
}

const hovering = (e) => e.pointerType === "mouse" && $("control").value === "hover";

function pointerDown(e) {
  if (e.pointerType === "mouse" && e.button !== 0) return;
  const el = e.target.closest(".tile");
  S.drag = { id: e.pointerId, x0: e.clientX, y0: e.clientY, line: el ? line(Number(el.dataset.tile)) : null, t0: performance.now() };
  $("board").setPointerCapture(e.pointerId);
  $("board").focus({ preventScroll: true });
  e.preventDefault();
}

function pointerMove(e) {
  const d = S.drag;
  if (!d || d.id !== e.pointerId || !d.line) return;
  const along = ((d.line.axis === "x" ? e.clientX - d.x0 : e.clientY - d.y0)) * d.line.sign;
  const offset = Math.max(0, Math.min(S.cell, along)) * d.line.sign;
  for (const t of d.line.tiles) {
    S.els[t].classList.add("held");
    put(t, S.tiles.indexOf(t), d.line.axis === "x" ? offset : 0, d.line.axis === "y" ? offset : 0);
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
      userLetters(d.line.letters);
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

// Hover control: a mouse that enters a tile in the blank's row or column slides its line.
function pointerOver(e) {
  if (!hovering(e) || S.drag) return;
  const el = e.target.closest(".tile");
  const found = el ? line(Number(el.dataset.tile)) : null;
  if (found) userLetters(found.letters);
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
  const action = { " ": newScramble, z: undo, y: redo, Z: redo, Escape: reset, p: togglePlay,
                   ",": () => stepTo(S.replay ? S.replay.step - 1 : 0), ".": () => stepTo(S.replay ? S.replay.step + 1 : 0) }[e.key];
  if (action) { e.preventDefault(); action(); }
}

export function listen() {
  const board = $("board");
  board.addEventListener("pointerdown", pointerDown);
  board.addEventListener("pointermove", pointerMove);
  board.addEventListener("pointerup", pointerUp);
  board.addEventListener("pointercancel", pointerUp);
  board.addEventListener("pointerover", pointerOver);
  document.addEventListener("keydown", keyDown);
}
