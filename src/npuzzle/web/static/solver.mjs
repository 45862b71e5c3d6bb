// The solver card: the server's solve of the board (its replay opened), and the board's bounds.
import { S } from "./state.mjs";
import { $, focusBoard, say } from "./dom.mjs";
import { rowsText } from "./rules.mjs";
import { api, cancelJob, job } from "./api.mjs";
import { giveUp, leaveReplay } from "./game.mjs";
import { openReplay, stopPlaying } from "./replay.mjs";

export async function solve() {
  if (S.job) return;
  if (S.phase === "running") {
    if (!confirm("The solver ends this timed attempt: it is kept in the session as a DNF (not finished). Solve?")) {
      focusBoard();
      return;
    }
    giveUp();
  }
  stopPlaying();
  const start = S.tiles.slice(), board = S.board, shape = [S.h, S.w];
  clearSolver();
  $("solve").disabled = true; $("cancel").hidden = false;
  const { result, error } = await job("/api/solve", { position: rowsText(start, S.h, S.w), goal: S.goal, method: $("method").value },
                                      (r) => say("status", r.text));
  $("solve").disabled = false; $("cancel").hidden = true; say("status", "");
  if (board !== S.board || S.h !== shape[0] || S.w !== shape[1]) return;   // another board is dealt: its card is clear
  if (error) { say("outcome", error, error !== "cancelled"); return; }
  say("outcome", result.outcome, result.status !== "solved");
  say("result", "Solver: " + result.outcome + (result.status === "solved" ? " (its replay is below)" : ""), result.status !== "solved");
  $("how").textContent = result.how;
  if (result.status !== "solved") return;
  if (S.phase !== "replay") leaveReplay();
  openReplay({ start, letters: result.letters, times: null, title: "Solver: " + result.outcome, kind: "free", step: 0 });
}

export async function cancel() {
  if (!(await cancelJob())) return;
  $("solve").disabled = false; $("cancel").hidden = true; say("status", ""); say("outcome", "cancelled");
}

// Forget the card's last answer (the board it spoke of is gone); a solve in flight is cancelled.
export function clearSolver() {
  if (S.job && !$("cancel").hidden) cancelJob();
  for (const id of ["outcome", "status", "how"]) say(id, "");
}

export function scheduleCheck() {
  clearTimeout(S.checkTimer);
  if (S.phase === "running") return;
  S.checkTimer = setTimeout(check, 300);
}

async function check() {
  const seq = ++S.checkSeq;
  const { ok, record } = await api("POST", "/api/check", { position: rowsText(S.tiles, S.h, S.w), goal: S.goal });
  if (seq === S.checkSeq) $("bounds").textContent = ok ? record.text : record.reason;
}
