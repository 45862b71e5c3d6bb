// The puzzle's rules, as npuzzle's board module states them: the two goal conventions and
// solvability. Pure: no DOM, no state; boards are arrays of tiles, row-major, 0 the blank.

export const MIN_SIDE = 2, MAX_SIDE = 10;
export const GOALS = ["standard", "blank-first"];

// The cell where `tile` belongs in the goal of a board of `n` cells: the standard goal has the
// blank last (1 2 … N-1 0), the blank-first one has it first (0 1 2 …).
export function goalCell(tile, n, goal) {
  if (goal === "blank-first") return tile;
  return tile === 0 ? n - 1 : tile - 1;
}

export function goalTiles(h, w, goal) {
  const n = h * w, out = [];
  for (let i = 0; i < n; i++) out.push(goal === "blank-first" ? i : (i + 1) % n);
  return out;
}

export function isGoal(tiles, goal) {
  const n = tiles.length;
  return tiles.every((t, i) => goalCell(t, n, goal) === i);
}

// Solvable: every move swaps the blank with a tile (the permutation's parity flips) and moves
// the blank one cell (the parity of its distance to its goal cell flips); both are even at the
// goal, so they must agree, and on boards of at least 2x2 that is also enough.
export function solvable(tiles, h, w, goal) {
  const n = h * w, seen = new Array(n).fill(false);
  let cycles = 0;
  for (let i = 0; i < n; i++) {
    if (seen[i]) continue;
    cycles++;
    for (let j = i; !seen[j]; j = goalCell(tiles[j], n, goal)) seen[j] = true;
  }
  const b = tiles.indexOf(0), g = goalCell(0, n, goal);
  const blank = Math.abs(Math.floor(b / w) - Math.floor(g / w)) + Math.abs((b % w) - (g % w));
  return (n - cycles) % 2 === blank % 2;
}

// "1 2 3/4 5 6/7 8 0": the rows, as the server reads a position.
export function rowsText(tiles, h, w) {
  const rows = [];
  for (let r = 0; r < h; r++) rows.push(tiles.slice(r * w, (r + 1) * w).join(" "));
  return rows.join("/");
}
