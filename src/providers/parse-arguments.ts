import { isRecord } from "./shape.js";

/**
 * A provider's argument text as a call's `arguments`, keeping the text as `rawArguments`.
 * Text that is not a JSON object gives `{}`: the runner sees the raw text and answers the model
 * that its arguments were not valid, instead of the call being lost.
 */
export function parseArgumentsText(text: string): { arguments: Record<string, unknown>; rawArguments: string } {
  if (text.trim() === "") return { arguments: {}, rawArguments: text };
  try {
    const parsed: unknown = JSON.parse(text);
    return { arguments: isRecord(parsed) ? parsed : {}, rawArguments: text };
  } catch {
    return { arguments: {}, rawArguments: text };
  }
}
