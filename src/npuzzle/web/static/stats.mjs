// A session's statistics: singles and averages of 5, 12, 50 and 100 of time, moves and moves per
// second, with DNFs (attempts given up). Pure: no DOM, no state; solves are the records the page
// keeps ({size, kind, time, moves, tps, dnf, …}).

export const DNF = "DNF";
export const AVERAGES = [5, 12, 50, 100];
// Lower is better for time and moves, higher for moves per second.
const HIGHER = { time: false, moves: false, tps: true };

// The average of n values, the best and the worst left out (5% of each side from ao50 on, as the
// speedsolving sites do); a DNF (null) is worse than any value, and if one is left after the
// cut the average is a DNF.
export function average(values, higher = false) {
  const n = values.length, cut = n < 50 ? 1 : Math.ceil(n * 0.05);
  const sorted = values.slice().sort((a, b) => (a === null ? 1 : b === null ? -1 : higher ? b - a : a - b));
  const kept = sorted.slice(cut, n - cut);
  if (kept.some((v) => v === null)) return DNF;
  return kept.reduce((a, b) => a + b, 0) / kept.length;
}

// Whether `a` is better than `b` (DNF or null: worse than any value).
function better(a, b, higher) {
  if (a === null || a === DNF) return false;
  if (b === null || b === DNF) return true;
  return higher ? a > b : a < b;
}

// The random-state solves of one size and, for each of time, moves and tps: the current and best
// single and aoN (null: too few solves).
export function summary(solves, size) {
  const mine = solves.filter((s) => s.size === size && s.kind === "random");
  const out = { count: mine.length, dnfs: mine.filter((s) => s.dnf).length };
  for (const key of ["time", "moves", "tps"]) {
    const values = mine.map((s) => (s.dnf ? null : s[key]));
    const now = { single: values.length ? (values[values.length - 1] ?? DNF) : null };
    const best = { single: null };
    for (const v of values) if (better(v, best.single, HIGHER[key])) best.single = v;
    if (best.single === null && values.length) best.single = DNF;
    for (const n of AVERAGES) {
      now["ao" + n] = values.length >= n ? average(values.slice(-n), HIGHER[key]) : null;
      let top = null;
      for (let i = n; i <= values.length; i++) {
        const a = average(values.slice(i - n, i), HIGHER[key]);
        if (top === null || better(a, top, HIGHER[key])) top = a;
      }
      best["ao" + n] = top;
    }
    out[key] = { now, best };
  }
  return out;
}

// Whether a solve of `time` ms beats the best single before it (never the first of a size).
export function isNewBest(before, time) {
  return typeof before === "number" && time < before;
}

// 12.345, 1:02.345 (ms as seconds); "DNF"; "–" for none.
export function formatTime(ms) {
  if (ms === DNF) return DNF;
  if (ms === null || ms === undefined) return "–";
  const s = ms / 1000;
  return s < 60 ? s.toFixed(3) : Math.floor(s / 60) + ":" + (s % 60).toFixed(3).padStart(6, "0");
}

// "1 solve", "2 solves", "1 random-state solve".
export function plural(count, noun, many = noun + "s") {
  return `${count} ${count === 1 ? noun : many}`;
}
