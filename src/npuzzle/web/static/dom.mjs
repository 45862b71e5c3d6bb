// The few helpers every view uses to reach the page.

export const $ = (id) => document.getElementById(id);

// A short message on an element; `error` shows it as one.
export function say(id, text, error) {
  $(id).textContent = text;
  $(id).classList.toggle("error", Boolean(error));
}

// The line above the board.
export const notice = (text, error) => say("notice", text, error);

// Back to the board, so that the arrow keys move tiles (not a select or a button).
export const focusBoard = () => $("board").focus({ preventScroll: true });
