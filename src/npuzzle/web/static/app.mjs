// npuzzle's web page: a sliding puzzle to play and time (session averages kept in the browser),
// replays, share links that follow the board, the server's solver and its solve analysis.
// Every record comes from the server's JSON API (docs/json.md); nothing is fetched from other sites.
//
// Modules: the pure ones (rules, moves, links, stats) touch neither the page nor any state and
// are tested with node (tests/js); state holds the page's one mutable state; the views (board,
// game, replay, solves, analysis, solver, share, input) draw and answer the page; this one wires
// them up.
import { S } from "./state.mjs";
import { $, focusBoard, notice, say } from "./dom.mjs";
import { MAX_SIDE, MIN_SIDE, goalTiles } from "./rules.mjs";
import { api } from "./api.mjs";
import { colour, layout, render } from "./board.mjs";
import { newScramble, redo, reset, setShape, startAttempt, undo } from "./game.mjs";
import { stepTo, stopPlaying, togglePlay } from "./replay.mjs";
import { clearSize, exportCsv, exportJson, showSession } from "./solves.mjs";
import { allOptimal, analyse, loadAnalysed, optimalFromHere } from "./analysis.mjs";
import { cancel, solve } from "./solver.mjs";
import { copyLink, hashNow, opened } from "./share.mjs";
import { listen } from "./input.mjs";

const PREFS = "npuzzle.prefs.v1";
const KEPT = ["walk", "slide", "scheme", "inspection", "keys", "control", "speed", "method"];

function savePrefs() {
  const prefs = {};
  for (const id of KEPT) prefs[id] = $(id).value;
  try { localStorage.setItem(PREFS, JSON.stringify(prefs)); } catch (e) { /* kept for this visit only */ }
}

function loadPrefs() {
  let prefs = {};
  try { prefs = JSON.parse(localStorage.getItem(PREFS) || "{}") || {}; } catch (e) { prefs = {}; }
  if (matchMedia("(prefers-reduced-motion: reduce)").matches && !("slide" in prefs)) prefs.slide = "0";
  for (const [id, value] of Object.entries(prefs)) {
    const el = $(id);
    if (el && [...el.options].some((o) => o.value === value)) el.value = value;
  }
  applySlide();
}

function applySlide() { document.documentElement.style.setProperty("--slide", $("slide").value + "ms"); }

async function loadText() {
  const text = $("position-text").value;
  let answer = await api("POST", "/api/check", { position: text, goal: S.goal });
  if (!answer.ok && answer.status === 400 && !/[/;\n]/.test(text.trim())) {
    const retry = await api("POST", "/api/check", { position: text, goal: S.goal, shape: S.h + "x" + S.w });
    if (retry.ok) answer = retry;
  }
  if (!answer.ok) { say("message", answer.record.reason, true); return; }
  const r = answer.record;
  if (!r.solvable) { say("message", r.reason, true); return; }
  say("message", "Loaded.");
  startAttempt(r.height, r.width, r.tiles, "loaded");
  focusBoard();
  $("board").scrollIntoView({ block: "nearest" });
}

async function init() {
  for (const id of ["rows", "cols"]) {
    for (let n = MIN_SIDE; n <= MAX_SIDE; n++) $(id).add(new Option(String(n), String(n)));
    $(id).addEventListener("change", () => newScramble());
  }
  loadPrefs();
  listen();
  const on = (id, f, what = "click") => $(id).addEventListener(what, f);
  on("scramble", () => newScramble()); on("undo", undo); on("redo", redo); on("reset", reset);
  on("goal", () => { S.goal = $("goal").value; colour(); newScramble(); }, "change");
  on("scheme", () => { colour(); savePrefs(); }, "change");
  on("slide", () => { applySlide(); savePrefs(); }, "change");
  for (const id of ["walk", "inspection", "keys", "control", "speed", "method"]) on(id, savePrefs, "change");
  // After any choice in a drop-down the arrow keys move tiles again, not the drop-down's value.
  document.addEventListener("change", (e) => { if (e.target.matches("select")) focusBoard(); });
  on("solve", solve); on("cancel", cancel);
  on("play", togglePlay); on("forward", () => { stopPlaying(); stepTo(S.replay.step + 1); });
  on("back", () => { stopPlaying(); stepTo(S.replay.step - 1); });
  on("first", () => { stopPlaying(); stepTo(0); }); on("last", () => { stopPlaying(); stepTo(Infinity); });
  on("scrub", () => { stopPlaying(); stepTo(Number($("scrub").value)); }, "input");
  on("export-csv", exportCsv); on("export-json", exportJson); on("clear", clearSize);
  on("analyse", () => analyse()); on("an-load", loadAnalysed); on("an-here", optimalFromHere); on("an-all", allOptimal);
  on("load", loadText); on("share", copyLink);
  window.addEventListener("hashchange", () => { if (location.hash !== hashNow()) opened(); });
  new ResizeObserver(() => {
    if ($("board-wrap").clientWidth + "x" + $("board-wrap").clientHeight !== S.room) layout();
  }).observe($("board-wrap"));
  S.tiles = goalTiles(S.h, S.w, S.goal); setShape(S.h, S.w); S.start = S.tiles.slice(); render();
  let shown = false;
  try { shown = await opened(); } catch (e) { notice("This link cannot be opened: " + e.message + ".", true); }
  if (!shown) await newScramble();
  showSession();
  document.body.dataset.ready = "1";
}

init();
