// The analysis card: a solve compared with the optimal distances (or bounds) move by move.
import { S } from "./state.mjs";
import { $, notice, say } from "./dom.mjs";
import { rowsText } from "./rules.mjs";
import { compactMoves } from "./moves.mjs";
import { plural } from "./stats.mjs";
import { job } from "./api.mjs";
import { setShape } from "./game.mjs";
import { openReplay, stepTo, stopPlaying } from "./replay.mjs";

// Fill the analysis card with a solve; analysed at once up to 16 cells (optimal distances,
// quick), on request beyond (a lower bound and a near-optimal solution: seconds of a worker).
// `beside`: the summary is also written under the board (the attempt just played).
export function analyseSolve(start, letters, beside) {
  clearAnalysis();
  $("an-position").value = rowsText(start, S.h, S.w);
  $("an-moves").value = compactMoves(letters);
  $("an-convention").value = "tile";
  if (S.h * S.w <= 16) analyse(0, beside);
  else say("an-message", "Analyse compares your solve with a lower bound and a near-optimal solution (some seconds).");
}

// Forget the last analysis (the board it spoke of is gone).
export function clearAnalysis() {
  S.analysis = null;
  $("an-result").hidden = true;
  for (const id of ["an-summary", "an-caption", "an-extra", "an-message"]) say(id, "");
  $("an-plot").replaceChildren();
  $("an-mistakes").replaceChildren();
}

export async function analyse(extra, beside) {
  const position = $("an-position").value.trim(), moves = $("an-moves").value.trim();
  if (!position) { say("an-message", "Paste a scramble first (any notation).", true); $("an-position").focus(); return null; }
  say("an-message", extra ? "Finding every optimal solution…" : "Analysing…");
  const board = S.board;
  const body = { position, moves, goal: S.goal, convention: $("an-convention").value, all_optimal: extra || 0 };
  const { result, error } = await job("/api/analyze", body, (r) => say("an-message", r.text));
  if (error) { say("an-message", error, true); return null; }
  say("an-message", "");
  if (!extra) {
    showAnalysis(result);
    if (beside && board === S.board) say("result", $("an-summary").textContent);
  }
  return result;
}

// The analysed moves as letters (the record's `letters`; its `moves` are the tiles pushed).
const lettersOf = (a) => (typeof a.letters === "string" ? a.letters : a.moves.join(""));
const startOf = (a) => a.tiles || a.position.split(/[\s/]+/).map(Number);

function showAnalysis(a) {
  const [h, w] = String(a.shape).split("x").map(Number);
  S.analysis = { record: a, h, w, letters: lettersOf(a) };
  $("an-result").hidden = false;
  const best = a.exact ? `optimal: ${a.start_distance}` + (a.solved ? ` — ${plural(a.length - a.start_distance, "move")} over` : "")
    : `optimal: at least ${a.start_distance} (a lower bound, not proven optimal)` +
      (Number.isFinite(a.near_optimal) ? `; a near-optimal solution has ${a.near_optimal}` : "");
  $("an-summary").textContent = `Your solution: ${plural(a.length, "move")}${a.solved ? "" : " (it does not reach the goal)"}; ` +
    `${best}. Moves/MD ${a.moves_per_md == null ? "–" : Number(a.moves_per_md).toFixed(2)}. ` +
    (a.exact ? `${plural(a.mistakes.length, "mistake")}.` : "Mistakes need optimal distances (boards of at most 16 cells).");
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

export function markPlot(k) {
  const mark = $("an-mark");
  if (!mark || !S.analysis) return;
  const same = S.replay && S.replay.letters === S.analysis.letters;
  mark.setAttribute("visibility", same ? "visible" : "hidden");
  if (same) { mark.setAttribute("x1", S.analysis.x(k).toFixed(1)); mark.setAttribute("x2", S.analysis.x(k).toFixed(1)); }
}

export async function optimalFromHere() {
  if (S.analysis && (!S.replay || S.replay.letters !== S.analysis.letters)) showAnalysed(0);
  const step = S.replay ? S.replay.step : S.log.length;
  $("an-extra").textContent = "Solving…";
  const { result, error } = await job("/api/solve", { position: rowsText(S.tiles, S.h, S.w), goal: S.goal, method: "auto" },
                                      (r) => { $("an-extra").textContent = r.text; });
  if (error) { say("an-extra", error, true); return; }
  say("an-extra", `From step ${step}: ${result.outcome}: ${result.status === "solved" ? compactMoves(result.letters) || "(solved)" : ""}`);
}

export async function allOptimal() {
  const a = await analyse(50);
  if (!a) return;
  const all = a.all_optimal || { count: 0, solutions: [] };
  say("an-extra", `${plural(all.count, "optimal solution")} of ${a.start_distance} moves` +
      (all.solutions.length < all.count ? ` (the first ${all.solutions.length})` : "") + ":\n" +
      all.solutions.map((s) => (Array.isArray(s) ? s.join("") : s)).join("\n"));
}

export async function loadAnalysed() {
  const a = await analyse();
  if (!a) return;
  const start = startOf(a);
  const [h, w] = String(a.shape).split("x").map(Number);
  S.tiles = start.slice(); setShape(h, w);
  openReplay({ start, letters: lettersOf(a), times: null, title: "Pasted solve", kind: "free", step: 0 });
}
