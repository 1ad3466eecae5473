/**
 * A tool message's content as a UI part's `output`, and back, losing nothing: content that is
 * the canonical JSON of an object or an array becomes that value (what a UI wants to render);
 * any other content (plain text, a number's text) stays the string it is. A string output is
 * therefore always content as it was, and an object always JSON, so the way back is exact.
 */
export function outputOf(content: string): unknown {
  const first = content.charAt(0);
  if (first !== "{" && first !== "[") return content;
  try {
    const value: unknown = JSON.parse(content);
    return typeof value === "object" && value !== null && JSON.stringify(value) === content ? value : content;
  } catch {
    return content;
  }
}

/** The content of the tool message a UI part's `output` stands for (see {@link outputOf}). */
export function contentOf(output: unknown): string {
  if (typeof output === "string") return output;
  if (output === undefined) return "";
  return JSON.stringify(output) ?? "";
}
