import type { ToolTailEvent } from "../results/index.js";

/**
 * `content` cut to at most `budget` characters for the model: its head and its tail, with a
 * marker between them that says how much was cut, so the model knows it did not see everything
 * (and roughly where the gap is). A cut never splits a surrogate pair. Below 2× the marker's
 * length the head alone is kept, still with the marker.
 *
 * @example
 * cutToBudget("a".repeat(1_000), 80);
 * // "aaaaaaaaaaaaaaaaaaaa\n[… 920 of 1000 characters cut …]\naaaaaaaaaaaaaaaaaaaaa" (80 characters)
 */
export function cutToBudget(content: string, budget: number): string {
  const total = content.length;
  if (total <= budget) return content;
  // The marker's length depends on how much is cut, and the cut on the marker's length: a few
  // rounds settle it (each round can only cut more, so the count's digits only grow).
  let room = budget - markerOf(total - budget, total).length;
  for (;;) {
    let head: string;
    let tail = "";
    if (room < 2 * MIN_MARKER) head = safeEnd(content, Math.max(0, room));
    else {
      head = safeEnd(content, Math.ceil(room / 2));
      tail = safeStart(content, total - (room - head.length));
    }
    const text = head + markerOf(total - head.length - tail.length, total) + tail;
    if (text.length <= budget || room <= 0) return text;
    room -= text.length - budget;
  }
}

/** The marker's length for the smallest cut: under twice that, a tail is not worth keeping. */
const MIN_MARKER = 32;

/** The call's tail event with its content within `budget`; the same event when it already is. */
export function tailWithinBudget(tail: ToolTailEvent, budget: number): ToolTailEvent {
  if (tail.type === "ask_user_requested" || tail.content.length <= budget) return tail;
  return { ...tail, content: cutToBudget(tail.content, budget) };
}

function markerOf(cut: number, total: number): string {
  return `\n[… ${cut} of ${total} characters cut …]\n`;
}

/** `text.slice(0, end)`, one shorter when that would end on the first half of a surrogate pair. */
function safeEnd(text: string, end: number): string {
  const code = text.charCodeAt(end - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? end - 1 : end);
}

/** `text.slice(start)`, one later when that would start on the second half of a surrogate pair. */
function safeStart(text: string, start: number): string {
  const code = text.charCodeAt(start);
  return text.slice(code >= 0xdc00 && code <= 0xdfff ? start + 1 : start);
}
