// The share link: it follows the board (the address bar's fragment), and a link opened is played.
import { S } from "./state.mjs";
import { $, notice } from "./dom.mjs";
import { expandMoves, play } from "./moves.mjs";
import { linkHash, readLink } from "./links.mjs";
import { api } from "./api.mjs";
import { newScramble, setShape, startAttempt } from "./game.mjs";
import { openReplay } from "./replay.mjs";

// The link of what is on the board: the replay, or the attempt and its moves so far.
export function hashNow() {
  const r = S.replay;
  if (r) return linkHash({ h: S.h, w: S.w, start: r.start, goal: S.goal, letters: r.letters, times: r.times });
  const times = S.log.length && S.log.every((m) => m.t !== null) ? S.log.map((m) => m.t) : null;
  return linkHash({ h: S.h, w: S.w, start: S.start, goal: S.goal, letters: S.log.map((m) => m.letter).join(""), times });
}

export function scheduleHash() {
  if (S.hashTimer) return;
  S.hashTimer = setTimeout(() => {
    S.hashTimer = null;
    if (!S.start.length) return;
    const hash = hashNow();
    if (location.hash !== hash) history.replaceState(null, "", hash);
    $("share-url").value = location.href;
  }, 250);
}

// Open the link in the address bar; false if it holds none.
export async function opened() {
  if (location.hash.startsWith("#p=")) return openedOld();
  let hash = location.hash;
  try { hash = decodeURIComponent(hash); } catch (e) { /* read as it is */ }
  const link = readLink(hash);
  if (link === null) return false;
  if (link.error && !link.tiles) {
    await newScramble();
    notice(`This link cannot be opened: ${link.error}. Here is a new scramble.`, true);
    return true;
  }
  S.goal = link.goal; $("goal").value = link.goal;
  S.tiles = link.tiles.slice(); setShape(link.h, link.w);
  let letters = link.letters, problem = link.error || link.warning || "";
  const { stopped } = play(link.tiles, link.h, link.w, letters);
  if (stopped >= 0) {
    problem = `move ${stopped + 1} of the link (${letters[stopped]}) has no tile to slide: the replay stops before it`;
    letters = letters.slice(0, stopped);
  }
  if (letters) openReplay({ start: link.tiles, letters, times: link.times && link.times.slice(0, letters.length), title: "Shared solve", kind: "link", step: 0 });
  else startAttempt(link.h, link.w, link.tiles, "link");
  notice(problem ? "This link: " + problem + "." : letters ? `A shared solve of ${letters.length} moves: play it to watch.` : "", Boolean(problem));
  return true;
}

// Links of earlier versions: #p=8,6,7/2,5,4/3,0,1&g=blank-first&s=LURD.
async function openedOld() {
  const params = new URLSearchParams(location.hash.slice(1));
  const goal = params.get("g") === "blank-first" ? "blank-first" : "standard";
  const { ok, record } = await api("POST", "/api/check", { position: (params.get("p") || "").replaceAll(",", " "), goal });
  if (!ok || !record.solvable) {
    await newScramble();
    notice(`This link cannot be opened: ${record.reason}. Here is a new scramble.`, true);
    return true;
  }
  S.goal = goal; $("goal").value = goal;
  const letters = expandMoves(params.get("s") || "") || "";
  history.replaceState(null, "", linkHash({ h: record.height, w: record.width, start: record.tiles, goal, letters }));
  return opened();   // in this version's form
}

export function copyLink() {
  scheduleHash();
  const url = location.origin + location.pathname + hashNow();
  $("share-url").value = url;
  if (navigator.clipboard) navigator.clipboard.writeText(url).then(() => notice("Link copied."), () => {});
}
