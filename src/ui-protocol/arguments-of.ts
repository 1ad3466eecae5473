/**
 * A call's arguments from the JSON text a client or an AI SDK model sent: the object it holds, or
 * `{}` when the text is not JSON or holds no object. Not a refusal: the text itself travels on as
 * the call's `rawArguments`, and the tool's schema then answers the model with what was wrong, as
 * for any other bad arguments.
 *
 * @example
 * argumentsOf('{"city":"Paris"}'); // { city: "Paris" }
 * argumentsOf("[1]"); // {}
 * argumentsOf("{"); // {}
 */
export function argumentsOf(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
