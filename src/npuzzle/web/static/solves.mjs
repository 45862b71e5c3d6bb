// The session: solves kept in this browser (localStorage), their averages, the list, exports.
import { S, size } from "./state.mjs";
import { $, notice } from "./dom.mjs";
import { lineMoves } from "./moves.mjs";
import { DNF, formatTime, plural, summary } from "./stats.mjs";
import { setShape } from "./game.mjs";
import { openReplay } from "./replay.mjs";
import { analyseSolve } from "./analysis.mjs";

const STORE = "npuzzle.solves.v1";
const ROWS = ["single", "ao5", "ao12", "ao50", "ao100"];

export function loadSolves() {
  try {
    const all = JSON.parse(localStorage.getItem(STORE) || "[]");
    return Array.isArray(all) ? all.filter((s) => s && typeof s.time === "number") : [];
  } catch (e) { return []; }
}

export function saveSolves(all) {
  try { localStorage.setItem(STORE, JSON.stringify(all.slice(-5000))); } catch (e) { notice("This browser keeps no solves (storage is full or off).", true); }
}

export function addSolve(solve) {
  const all = loadSolves();
  all.push(solve);
  saveSolves(all);
}

const number = (v, digits) => (v === null || v === undefined ? "–" : v === DNF ? DNF : v.toFixed(digits));

export function showSession() {
  const all = loadSolves(), st = summary(all, size());
  const rows = ROWS.map((k) => {
    const tr = document.createElement("tr");
    tr.id = "avg-" + k;
    const th = document.createElement("th"); th.scope = "row"; th.textContent = k;
    const cells = [formatTime(st.time.now[k]), formatTime(st.time.best[k]),
                   number(st.moves.now[k], k === "single" ? 0 : 1), number(st.tps.now[k], 2)];
    tr.append(th, ...cells.map((text) => Object.assign(document.createElement("td"), { textContent: text })));
    return tr;
  });
  $("averages").tBodies[0].replaceChildren(...rows);
  const mine = all.filter((s) => s.size === size()).slice(-12).reverse();
  $("solves").replaceChildren(...mine.map((s) => {
    const li = document.createElement("li"), b = document.createElement("button");
    b.type = "button";
    b.textContent = (s.dnf ? `DNF (${formatTime(s.time)} s)` : `${formatTime(s.time)} s`) + ` · ${s.moves} moves · ${s.tps.toFixed(2)}/s` +
      (s.kind !== "random" ? ` · ${s.kind}` : "");
    b.addEventListener("click", () => replaySolve(s));
    li.appendChild(b);
    return li;
  }));
  $("session-size").textContent = size() + (st.count ? ` · ${plural(st.count, "random-state solve")}` : "") +
    (st.dnfs ? ` (${st.dnfs} DNF)` : "");
}

function replaySolve(s) {
  const [h, w] = s.size.split("x").map(Number);
  S.goal = s.goal || "standard"; $("goal").value = S.goal;
  S.tiles = s.scramble.split(".").map(Number); setShape(h, w);
  openReplay({ start: S.tiles, letters: s.solution, times: s.times, title: s.dnf ? `DNF of ${formatTime(s.time)} s` : `Solve of ${formatTime(s.time)} s`,
               kind: "retry", step: 0 });
  analyseSolve(S.tiles, s.solution, false);
}

export function download(name, type, text) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type }));
  a.download = name;
  document.body.appendChild(a); a.click(); a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

export function exportCsv() {
  const cols = ["size", "goal", "kind", "date", "time", "dnf", "moves", "mtm", "tps", "undos", "scramble", "solution", "times"];
  const lines = [cols.map((c) => (c === "time" ? "time_ms" : c === "times" ? "times_ms" : c)).join(",")];
  for (const s of loadSolves()) {
    s.mtm ??= lineMoves(s.solution || "");   // solves kept before the count was
    lines.push(cols.map((c) => (c === "times" ? (s.times || []).join(" ") : c === "dnf" ? (s.dnf ? "1" : "0") : String(s[c] ?? ""))).join(","));
  }
  download("npuzzle-solves.csv", "text/csv", lines.join("\n") + "\n");
}

export function exportJson() {
  download("npuzzle-solves.json", "application/json", JSON.stringify(loadSolves(), null, 1));
}

export function clearSize() {
  if (confirm(`Forget every ${size()} solve kept in this browser?`)) { saveSolves(loadSolves().filter((s) => s.size !== size())); showSession(); }
}
