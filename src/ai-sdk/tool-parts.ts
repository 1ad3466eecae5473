import type { UIMessage } from "ai";

/** A tool part as `useChat` keeps it, static (`tool-<name>`) or dynamic: the fields toolrx reads. */
export interface ToolPart {
  readonly type: string;
  readonly toolName?: string;
  readonly toolCallId: string;
  readonly state: string;
  readonly input?: unknown;
  readonly output?: unknown;
  readonly errorText?: string;
  readonly providerExecuted?: boolean;
  readonly approval?: { readonly id: string; readonly approved?: boolean; readonly reason?: string; readonly signature?: string };
}

/** A message's part, whatever its kind. */
export type Part = UIMessage["parts"][number];

/** Whether a part is a tool call's. */
export function isToolPart(p: Part): p is Part & ToolPart {
  return typeof p === "object" && p !== null && typeof p.type === "string" && (p.type === "dynamic-tool" || p.type.startsWith("tool-"));
}

/** The tool a part calls. */
export function toolNameOf(p: ToolPart): string {
  return p.type === "dynamic-tool" ? String(p.toolName) : p.type.slice("tool-".length);
}

/** The tool parts of a message, with their tool's name. */
export function toolPartsOf(m: UIMessage): (ToolPart & { readonly name: string })[] {
  if (!Array.isArray(m?.parts)) return [];
  return m.parts.filter(isToolPart).map((p) => ({ ...p, name: toolNameOf(p) }));
}
