// Moves and their letters, as npuzzle writes them: a letter names the way the pushed TILE slides
// (L slides the tile right of the blank to the left, so the blank moves right). Pure: no DOM, no
// state; a board is {tiles, h, w} or its parts, and only `push` changes the array it is given.

// Where the pushed tile is, seen from the blank: [rows, columns].
const STEP = { L: [0, 1], R: [0, -1], U: [1, 0], D: [-1, 0] };
export const OPPOSITE = { L: "R", R: "L", U: "D", D: "U" };

// The tile a letter pushes on `tiles` (null if there is none: the blank is at that edge).
export function tileFor(letter, tiles, h, w) {
  const b = tiles.indexOf(0), r = Math.floor(b / w) + STEP[letter][0], c = (b % w) + STEP[letter][1];
  return r < 0 || r >= h || c < 0 || c >= w ? null : tiles[r * w + c];
}

// The letter that slides `tile` (null if it is not beside the blank).
export function letterOf(tile, tiles, w) {
  const b = tiles.indexOf(0), t = tiles.indexOf(tile);
  const dr = Math.floor(t / w) - Math.floor(b / w), dc = (t % w) - (b % w);
  if (Math.abs(dr) + Math.abs(dc) !== 1) return null;
  return dc === 1 ? "L" : dc === -1 ? "R" : dr === 1 ? "U" : "D";
}

// Slide `tile` into the blank, in place.
export function push(tiles, tile) {
  const b = tiles.indexOf(0), t = tiles.indexOf(tile);
  tiles[b] = tile; tiles[t] = 0;
}

// The tiles pushed by `letters` from `tiles` and the board after them; `stopped` is the index of
// the first letter with no tile to slide (-1 if every letter was played).
export function play(tiles, h, w, letters) {
  const board = tiles.slice(), moves = [];
  for (let i = 0; i < letters.length; i++) {
    const tile = tileFor(letters[i], board, h, w);
    if (tile === null) return { tiles: board, moves, stopped: i };
    push(board, tile);
    moves.push(tile);
  }
  return { tiles: board, moves, stopped: -1 };
}

// The letters of tiles pushed from `tiles` (null if one of them is not beside the blank then).
export function lettersOf(tiles, w, moves) {
  const board = tiles.slice();
  let out = "";
  for (const tile of moves) {
    const letter = letterOf(tile, board, w);
    if (letter === null) return null;
    push(board, tile);
    out += letter;
  }
  return out;
}

// "URDL2UR2", "U R D L L", "u3": the letters one by one (null if it is not such a text).
export function expandMoves(text) {
  const compact = text.replace(/[\s,]+/g, "").toUpperCase();
  if (!/^([UDLR]\d*)*$/.test(compact)) return null;
  let out = "";
  for (const [, letter, count] of compact.matchAll(/([UDLR])(\d*)/g)) {
    const times = count ? Number(count) : 1;
    if (times < 1 || times > 10000 || out.length + times > 200000) return null;
    out += letter.repeat(times);
  }
  return out;
}

// Runs of one letter as the letter and its count: the speedsolvers' compact form ("URDL2U3").
export function compactMoves(letters) {
  return letters.replace(/([UDLR])\1+/g, (run, letter) => letter + run.length);
}

// The same moves named by the way the blank moves (each letter's opposite).
export function blankLetters(letters) {
  return letters.replace(/[UDLR]/g, (x) => OPPOSITE[x]);
}

// The line moves (multi-tile metric, MTM): a run of one letter slides one line of tiles, one move.
export function lineMoves(letters) {
  let count = 0;
  for (let i = 0; i < letters.length; i++) if (i === 0 || letters[i] !== letters[i - 1]) count++;
  return count;
}

// The line a tap on `tile` slides: the letter and count of single moves (null if the tile is in
// neither the blank's row nor its column).
export function lineOf(tile, tiles, w) {
  const t = tiles.indexOf(tile), b = tiles.indexOf(0);
  const tr = Math.floor(t / w), tc = t % w, br = Math.floor(b / w), bc = b % w;
  if (tile === 0 || (tr !== br && tc !== bc)) return null;
  const letter = tr === br ? (tc > bc ? "L" : "R") : (tr > br ? "U" : "D");
  return { letter, count: Math.abs(tr - br) + Math.abs(tc - bc) };
}
