// Share links: #4x4/1.5.0.2.…/goal=blank-first/URDL2…/t=0.120.95… (the goal part only when it is
// not the standard one; the moves in compact letters; each move's time after the one before, in
// ms). Pure: no DOM, no state.
import { MAX_SIDE, MIN_SIDE, solvable } from "./rules.mjs";
import { compactMoves, expandMoves } from "./moves.mjs";

// The link's fragment of a board, the moves played from it and their times (ms from the start).
export function linkHash({ h, w, start, goal, letters = "", times = null }) {
  let hash = "#" + h + "x" + w + "/" + start.join(".");
  if (goal !== "standard") hash += "/goal=" + goal;
  if (letters) hash += "/" + compactMoves(letters);
  if (letters && times && times.length === letters.length) hash += "/t=" + times.map((t, i) => t - (i ? times[i - 1] : 0)).join(".");
  return hash;
}

// Read a link's fragment: null if it holds none (or an old link's #p=…), else {h, w, goal, tiles,
// letters, times, error, warning}; with an error and no tiles when no board can be read from it.
export function readLink(hash) {
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
