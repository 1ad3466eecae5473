/**
 * The page: the AI SDK's own `useChat` (from @ai-sdk/react), unchanged, talking to a toolrx
 * server. No JSX, so the example needs no build setup beyond esbuild's bundle. Each call is a
 * row with its state, its progress bar, and what the page can do about it: answer a question
 * (`addToolOutput`), approve or deny (`addToolApprovalResponse`), stop a running call alone (a
 * POST the server turns into toolrx's `cancel`; the rest of the turn goes on). The answers resend the
 * conversation by themselves (`sendAutomaticallyWhen`), and the run resumes on the server.
 */
import { useChat } from "@ai-sdk/react";
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses, lastAssistantMessageIsCompleteWithToolCalls, type UIMessage } from "ai";
import { createElement as h, useState, type ReactNode } from "react";
import { createRoot } from "react-dom/client";
import type { ToolrxDataTypes } from "../../src/ai-sdk/index.js";

type ChatMessage = UIMessage<{ haltedReason?: string }, ToolrxDataTypes>;
type Part = ChatMessage["parts"][number];
interface ToolPartView {
  type: string;
  toolCallId: string;
  state: string;
  input?: unknown;
  output?: unknown;
  errorText?: string;
  approval?: { id: string };
}

function isToolPart(p: Part): boolean {
  return p.type.startsWith("tool-");
}

function App(): ReactNode {
  const [text, setText] = useState("Plan a long weekend in Lisbon.");
  const { id, messages, sendMessage, addToolOutput, addToolApprovalResponse, status, stop } = useChat<ChatMessage>({
    transport: new DefaultChatTransport({ api: "/api/chat" }),
    sendAutomaticallyWhen: (o) => lastAssistantMessageIsCompleteWithApprovalResponses(o) || lastAssistantMessageIsCompleteWithToolCalls(o),
  });
  const busy = status === "submitted" || status === "streaming";
  // A call put up again on a later message (the user wrote instead of deciding) is answered there: its last copy.
  const lastCopy = new Map<string, string>();
  for (const m of messages) for (const p of m.parts) if (isToolPart(p)) lastCopy.set((p as unknown as ToolPartView).toolCallId, m.id);
  return h(
    "main",
    null,
    h("h1", null, "toolrx × useChat"),
    ...messages.map((m) => h(Message, { key: m.id, chatId: id, message: m, lastCopy, addToolOutput, addToolApprovalResponse })),
    h(
      "form",
      {
        id: "composer",
        onSubmit: (e: { preventDefault(): void }) => {
          e.preventDefault();
          if (text.trim() !== "") void sendMessage({ text });
          setText("");
        },
      },
      h("input", { id: "prompt", value: text, onChange: (e: { target: { value: string } }) => setText(e.target.value) }),
      busy ? h("button", { type: "button", id: "stop", onClick: () => void stop() }, "Stop") : h("button", { type: "submit", id: "send" }, "Send"),
    ),
    h("p", { id: "status", "data-status": status }, status),
  );
}

function Message(props: {
  chatId: string;
  message: ChatMessage;
  lastCopy: ReadonlyMap<string, string>;
  addToolOutput: ReturnType<typeof useChat<ChatMessage>>["addToolOutput"];
  addToolApprovalResponse: ReturnType<typeof useChat<ChatMessage>>["addToolApprovalResponse"];
}): ReactNode {
  const { message } = props;
  const progress = new Map<string, ToolrxDataTypes["tool-progress"]>();
  const questions = new Map<string, ToolrxDataTypes["ask-user"]>();
  for (const p of message.parts) {
    if (p.type === "data-tool-progress") progress.set(p.data.toolCallId, p.data);
    if (p.type === "data-ask-user") questions.set(p.data.toolCallId, p.data);
  }
  return h(
    "section",
    { className: `message ${message.role}`, "data-role": message.role },
    ...message.parts.map((p, i) => {
      if (p.type === "text") return h("p", { key: i, className: "text" }, p.text);
      if (!isToolPart(p)) return null;
      const part = p as unknown as ToolPartView;
      const last = props.lastCopy.get(part.toolCallId) === message.id;
      return h(ToolRow, { key: part.toolCallId, part, last, progress: progress.get(part.toolCallId), question: questions.get(part.toolCallId), ...props });
    }),
  );
}

function ToolRow(props: {
  chatId: string;
  part: ToolPartView;
  /** Whether this is the call's last copy, the one an answer is sent from. */
  last: boolean;
  progress: ToolrxDataTypes["tool-progress"] | undefined;
  question: ToolrxDataTypes["ask-user"] | undefined;
  addToolOutput: ReturnType<typeof useChat<ChatMessage>>["addToolOutput"];
  addToolApprovalResponse: ReturnType<typeof useChat<ChatMessage>>["addToolApprovalResponse"];
}): ReactNode {
  const { part, progress, question } = props;
  const name = part.type.slice("tool-".length);
  const [answer, setAnswer] = useState("");
  const fraction = progress === undefined ? undefined : Number(progress.progress) / Number(progress.total ?? 1);
  const open = part.state === "input-available" && question !== undefined;
  const running = part.state === "input-available" && question === undefined;
  return h(
    "div",
    { className: "call", "data-call-id": part.toolCallId, "data-tool": name, "data-state": part.state },
    h("span", { className: "name" }, name),
    h("code", { className: "input" }, JSON.stringify(part.input ?? {})),
    h("span", { className: "state" }, part.state),
    fraction === undefined ? null : h("progress", { value: fraction, max: 1, "data-progress": String(progress?.message ?? "") }),
    part.state === "output-available" ? h("code", { className: "output" }, JSON.stringify(part.output)) : null,
    part.state === "output-error" ? h("code", { className: "error" }, part.errorText) : null,
    running
      ? h(
          "button",
          {
            type: "button",
            className: "stop-call",
            onClick: () =>
              void fetch("/api/cancel", {
                method: "POST",
                headers: { "content-type": "application/json" },
                body: JSON.stringify({ chatId: props.chatId, toolCallId: part.toolCallId }),
              }),
          },
          "Stop",
        )
      : null,
    open
      ? h(
          "form",
          {
            className: "ask",
            onSubmit: (e: { preventDefault(): void }) => {
              e.preventDefault();
              void props.addToolOutput({ tool: name as never, toolCallId: part.toolCallId, output: answer as never });
            },
          },
          h("label", null, question.question),
          h("input", { className: "answer", value: answer, onChange: (e: { target: { value: string } }) => setAnswer(e.target.value) }),
          h("button", { type: "submit" }, "Answer"),
        )
      : null,
    part.state === "approval-requested" && part.approval !== undefined && props.last
      ? h(
          "div",
          { className: "approval" },
          h(
            "button",
            { type: "button", className: "approve", onClick: () => void props.addToolApprovalResponse({ id: part.approval?.id ?? "", approved: true }) },
            "Approve",
          ),
          h(
            "button",
            {
              type: "button",
              className: "deny",
              onClick: () => void props.addToolApprovalResponse({ id: part.approval?.id ?? "", approved: false, reason: "not now" }),
            },
            "Deny",
          ),
        )
      : null,
  );
}

createRoot(document.getElementById("root") as HTMLElement).render(h(App));
