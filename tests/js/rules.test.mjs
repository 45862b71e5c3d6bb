// The page's pure modules against npuzzle's own answers (rules.json, written by
// tests/test_web_rules.py from npuzzle), and the session statistics against hand-worked cases.
// Run: node --test tests/js/*.test.mjs
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { goalTiles, isGoal, solvable, rowsText } from "../../src/npuzzle/web/static/rules.mjs";
import { play, lettersOf, compactMoves, expandMoves, blankLetters, lineMoves, lineOf, tileFor, letterOf }
  from "../../src/npuzzle/web/static/moves.mjs";
import { linkHash, readLink } from "../../src/npuzzle/web/static/links.mjs";
import { DNF, average, summary, isNewBest, formatTime, plural } from "../../src/npuzzle/web/static/stats.mjs";

const fixture = JSON.parse(readFileSync(new URL("./rules.json", import.meta.url)));
const name = (b) => `${b.h}x${b.w} ${b.goal} ${b.tiles.join(".")}`;

test("the fixture holds a few hundred boards of six shapes and both goals", () => {
  assert.ok(fixture.boards.length >= 300);
  assert.equal(new Set(fixture.boards.map((b) => `${b.h}x${b.w}/${b.goal}`)).size, 12);
});

test("goal boards are npuzzle's, in both conventions", () => {
  for (const g of fixture.goals) {
    assert.deepEqual(goalTiles(g.h, g.w, g.goal), g.tiles, `${g.h}x${g.w} ${g.goal}`);
    assert.ok(isGoal(g.tiles, g.goal));
    const other = g.goal === "standard" ? "blank-first" : "standard";
    assert.ok(!isGoal(g.tiles, other));
  }
});

test("solvability agrees with npuzzle on every board", () => {
  for (const b of fixture.boards) assert.equal(solvable(b.tiles, b.h, b.w, b.goal), b.solvable, name(b));
});

test("letters push the tiles npuzzle pushes, and stop where npuzzle finds no tile", () => {
  for (const b of fixture.boards) {
    const out = play(b.tiles, b.h, b.w, b.letters);
    assert.equal(out.stopped, b.stopped, name(b) + " " + b.letters);
    assert.deepEqual(out.moves, b.pushed, name(b));
    assert.deepEqual(out.tiles, b.after, name(b));
    if (b.stopped >= 0) assert.equal(tileFor(b.letters[b.stopped], b.after, b.h, b.w), null);
    const walk = play(b.tiles, b.h, b.w, b.walk);
    assert.equal(walk.stopped, -1);
    assert.deepEqual(walk.moves, b.walk_tiles, name(b));
    assert.deepEqual(walk.tiles, b.walk_end, name(b));
    assert.equal(lettersOf(b.tiles, b.w, b.walk_tiles), b.walk, name(b));
    assert.equal(isGoal(b.tiles, b.goal), b.tiles.every((t, i) => t === goalTiles(b.h, b.w, b.goal)[i]));
  }
});

test("move text: the compact form, the blank's convention and the line moves are npuzzle's", () => {
  for (const b of fixture.boards) {
    assert.equal(compactMoves(b.walk), b.compact);
    assert.equal(expandMoves(b.compact), b.walk);
    assert.equal(expandMoves(b.compact.split("").join(" ").toLowerCase()), b.walk);
    assert.equal(compactMoves(blankLetters(b.walk)), b.blank);
    assert.equal(lineMoves(b.walk), b.line_moves);
  }
  assert.equal(lineMoves(""), 0);
  for (const bad of ["X", "U0", "L2x", "3"]) assert.equal(expandMoves(bad), null, bad);
});

test("a tap's line: the letters that slide every tile between the blank and the tapped one", () => {
  for (const b of fixture.boards) {
    for (const tile of b.tiles) {
      const line = lineOf(tile, b.tiles, b.w);
      const t = b.tiles.indexOf(tile), z = b.tiles.indexOf(0);
      const inLine = tile !== 0 && (Math.floor(t / b.w) === Math.floor(z / b.w) || t % b.w === z % b.w);
      assert.equal(line !== null, inLine);
      if (!line) continue;
      const after = play(b.tiles, b.h, b.w, line.letter.repeat(line.count));
      assert.equal(after.stopped, -1);
      assert.equal(after.tiles.indexOf(0), t, "the blank ends where the tapped tile was");
      assert.equal(letterOf(tile, b.tiles, b.w) === null, line.count > 1);
    }
  }
});

test("links round-trip every solvable board and refuse the others", () => {
  for (const b of fixture.boards) {
    const times = [...b.walk].map((_, i) => 100 * (i + 1));
    const link = readLink(linkHash({ h: b.h, w: b.w, start: b.tiles, goal: b.goal, letters: b.walk, times }));
    if (!b.solvable) { assert.equal(link.tiles, null); assert.match(link.error, /wrong parity/); continue; }
    assert.deepEqual([link.h, link.w, link.goal, link.tiles, link.letters, link.times],
                     [b.h, b.w, b.goal, b.tiles, b.walk, times]);
    assert.equal(link.error, undefined);
  }
  assert.equal(readLink("#"), null);
  assert.match(readLink("#12x3/1.2").error, /2x2 to 10x10/);
  assert.match(readLink("#3x3/1.2.3.4.5.6.7.8.8").error, /tile 8 is twice/);
  assert.equal(rowsText([1, 2, 3, 4, 5, 0], 2, 3), "1 2 3/4 5 0");
});

test("averages leave out the best and the worst; a DNF is the worst, two make a DNF", () => {
  assert.equal(average([5000, 3000, 4000, 2000, 6000]), 4000);
  assert.equal(average([5000, 3000, null, 2000, 6000]), (3000 + 5000 + 6000) / 3);
  assert.equal(average([5000, null, null, 2000, 6000]), DNF);
  assert.equal(average([1, 2, 3, 4, 100], true), 3);                  // moves/s: higher is better
  const fifty = Array.from({ length: 50 }, (_, i) => (i + 1) * 1000);   // 5% of 50: 3 cut from each side
  assert.equal(average(fifty), fifty.slice(3, 47).reduce((a, b) => a + b) / 44);
});

test("the session's summary: current and best, times, moves and moves per second", () => {
  const solve = (time, moves, extra = {}) => ({ size: "3x3", kind: "random", time, moves, tps: moves / time * 1000, ...extra });
  const solves = [solve(4000, 20), solve(2500, 30), solve(3000, 25), solve(9000, 22, { dnf: true }), solve(3500, 21),
                  solve(1000, 10, { kind: "walk 10" }), solve(500, 5, { size: "4x4" })];
  const s = summary(solves, "3x3");
  assert.equal(s.count, 5);
  assert.equal(s.dnfs, 1);
  assert.equal(s.time.now.single, 3500);
  assert.equal(s.time.best.single, 2500);
  assert.equal(s.time.now.ao5, (3000 + 3500 + 4000) / 3);
  assert.equal(s.moves.now.ao5, (21 + 25 + 30) / 3);
  assert.equal(s.time.now.ao12, null);
  assert.equal(s.tps.best.single, 12);
  assert.equal(summary([solve(3000, 20, { dnf: true })], "3x3").time.now.single, DNF);
  assert.equal(summary([], "3x3").time.best.single, null);
});

test("honest bests and plurals", () => {
  assert.equal(isNewBest(null, 1000), false);   // the first solve of a size
  assert.equal(isNewBest(2000, 1000), true);
  assert.equal(isNewBest(1000, 1000), false);
  assert.equal(plural(1, "random-state solve"), "1 random-state solve");
  assert.equal(plural(2, "random-state solve"), "2 random-state solves");
  assert.equal(formatTime(61234), "1:01.234");
  assert.equal(formatTime(DNF), "DNF");
});

test("the pure modules touch neither the page nor the page's state: they import only each other", () => {
  const pure = ["rules.mjs", "moves.mjs", "links.mjs", "stats.mjs"];
  for (const name of pure) {
    const source = readFileSync(new URL("../../src/npuzzle/web/static/" + name, import.meta.url), "utf8")
      .replace(/\/\/.*$/gm, "");   // comments may name the page
    assert.doesNotMatch(source, /\b(document|window|localStorage|navigator|location|fetch|performance|history)\b/, name);
    for (const [, from] of source.matchAll(/\bfrom\s+"([^"]+)"/g)) assert.ok(pure.includes(from.replace("./", "")), `${name} imports ${from}`);
  }
});
