// Replays: a solve's moves stepped, scrubbed or played at a chosen or the real speed.
import { S } from "./state.mjs";
import { $ } from "./dom.mjs";
import { play } from "./moves.mjs";
import { formatTime } from "./stats.mjs";
import { render, shownTime } from "./board.mjs";
import { setPhase } from "./game.mjs";
import { markPlot } from "./analysis.mjs";

// Show a replay of `letters` from `start` (the board must have the replay's shape).
export function openReplay({ start, letters, times, title, kind, step }) {
  stopPlaying();
  const { moves } = play(start, S.h, S.w, letters);
  S.replay = { start: start.slice(), moves, letters, step: 0, title, kind,
               times: times && times.length === moves.length && times.every(Number.isFinite) ? times : null };
  S.tiles = start.slice();
  if (S.phase !== "done") S.elapsed = 0;
  setPhase("replay");
  $("player").hidden = false;
  $("player-title").textContent = title;
  $("scrub").max = String(moves.length);
  $("steps").textContent = String(moves.length);
  $("speed").options[0].disabled = !S.replay.times;
  if (!S.replay.times && $("speed").value === "real") $("speed").value = "5";
  stepTo(step || 0);
}

export function closeReplay() {
  S.replay = null;
  $("player").hidden = true;
}

export function stepTo(k) {
  const r = S.replay;
  if (!r) return;
  k = Math.max(0, Math.min(r.moves.length, k));
  S.tiles = play(r.start, S.h, S.w, r.letters.slice(0, k)).tiles;
  r.step = k;
  $("step").textContent = String(k);
  $("scrub").value = String(k);
  const before = r.letters.slice(Math.max(0, k - 60), k), after = r.letters.slice(k, k + 60);
  const mark = document.createElement("mark"); mark.textContent = "|";
  $("letters").replaceChildren((k > 60 ? "…" : "") + before, mark, after + (k + 60 < r.letters.length ? "…" : ""));
  $("letters").title = r.letters;
  showPlaying();
  markPlot(k);
  render();
  $("timer").textContent = formatTime(shownTime());
}

// The play button: its icon and word follow whether the replay is playing.
function showPlaying() {
  const playing = Boolean(S.playing);
  $("play").querySelector("use").setAttribute("href", playing ? "#i-pause" : "#i-play");
  $("play").querySelector("span").textContent = playing ? "pause" : "play";
}

export function togglePlay() {
  const r = S.replay;
  if (!r) return;
  if (S.playing) { stopPlaying(); return; }
  if (r.step >= r.moves.length) stepTo(0);
  const next = () => {
    if (!S.replay || r.step >= r.moves.length) { stopPlaying(); return; }
    const real = $("speed").value === "real" && r.times;
    const wait = real ? (r.step === 0 ? 300 : r.times[r.step] - r.times[r.step - 1]) : 1000 / Number($("speed").value);
    S.playing = setTimeout(() => { stepTo(r.step + 1); next(); }, Math.max(0, wait));
  };
  S.playing = -1;
  next();
  showPlaying();
}

export function stopPlaying() {
  if (S.playing) clearTimeout(S.playing);
  S.playing = null;
  showPlaying();
}
