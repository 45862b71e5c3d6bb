// The page's one mutable state: the board, the attempt, the replay and the jobs in flight. Only
// the view modules import it; the pure modules (rules, moves, links, stats) never see it.

export const S = {
  h: 4, w: 4, goal: "standard",
  tiles: [], start: [], kind: "random",   // the board now; the attempt's start and how it was made
  log: [], redo: [], undos: 0,             // the attempt's moves [{tile, letter, t}] and the undone ones
  phase: "free", t0: 0, elapsed: 0,        // inspect | running | done | free | replay
  inspectTimer: null, frame: null,
  els: [], cell: 40, pad: 6, gap: 4, room: "",
  replay: null, playing: null,             // {start, moves: [tile], letters, times, step, title, kind}
  drag: null, job: null, checkTimer: null, checkSeq: 0, hashTimer: null, scrambleSeq: 0,
  board: 0,                                // counts the boards dealt: a late answer for an older one is dropped
  analysis: null,                          // {record, h, w, letters, x}: the last analysis and its solve
};

// The board as the pure modules take it.
export const size = () => S.h + "x" + S.w;
