/**
 * Streams an agent run to a browser as Server-Sent Events. No framework: node:http and one static
 * page, and one stream: the agent's. The model is scripted (no key, no network) and streams each
 * call's arguments, so the page shows the call forming (`tool_input`), then queued, then running.
 * Progress comes as `call_report` events, and a subagent's events (`local_guide`) as
 * `subagent_event`s, which the page nests under their call. A "stop" button posts to `/cancel`, which cancels that one call
 * (`RunOptions.cancel`) while the rest of the turn goes on. When the run halts with `ask_user`,
 * the page shows the question; its answer, posted to `/answer`, resumes the run as the contract
 * says (the conversation plus the user's answer, a new `streamAgent`) and its events follow on
 * the same stream. Every event is stamped with the server's time, so durations shown are the
 * tools' own, not the network's. Closing the tab unsubscribes, which aborts the handlers.
 *
 * Run: npm run example:ui   (then open the printed address)
 */
import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { Subject, type Subscription } from "rxjs";
import { streamAgent, type AgentEvent } from "../../src/index.js";
import type { CallCancellation } from "../../src/run/run-options.js";
import type { Message } from "../../src/tool/message.js";
import { tools, tripModel } from "./turn.js";

const page = fileURLToPath(new URL("./index.html", import.meta.url));

const firstMessages: Message[] = [{ role: "user", content: "Plan a long weekend in Lisbon, and a look at Reykjavik." }];

/** One open page: its stop channel, and what it needs to resume once the user answers. */
interface Session {
  readonly cancel: Subject<CallCancellation>;
  /** Runs the loop on `messages`, streaming its events to the page. */
  readonly play: (messages: readonly Message[]) => void;
  /** The conversation of a run halted on `ask_user`, waiting for the answer. */
  waiting?: readonly Message[];
}

/** Start the example server on `port` (0: any free port). */
export async function startServer(port = 0): Promise<{ url: string; server: Server; close: () => Promise<void> }> {
  const html = await readFile(page, "utf8");
  const sessions = new Map<string, Session>();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (url.pathname === "/") return void res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html);
    if (url.pathname === "/events") return streamRun(req, res, sessions);
    const session = sessions.get(url.searchParams.get("session") ?? "");
    if (req.method !== "POST" || session === undefined) return void res.writeHead(404).end();
    const toolCallId = url.searchParams.get("id");
    if (url.pathname === "/cancel" && toolCallId !== null) {
      session.cancel.next({ toolCallId, reason: "stopped by the user" });
      return void res.writeHead(204).end();
    }
    if (url.pathname === "/answer") {
      readText(req).then(
        (answer) => resume(session, answer, res),
        () => res.writeHead(400).end(),
      );
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const { port: actual } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${actual}/`,
    server,
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}

/** One page's event stream: the first run, then each resumed one, until the run ends or the tab closes. */
function streamRun(req: IncomingMessage, res: ServerResponse, sessions: Map<string, Session>): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-store", connection: "keep-alive" });
  const t0 = performance.now();
  const at = () => Math.round(performance.now() - t0);
  const send = (event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  const model = tripModel();
  const pageTools = tools();
  let run: Subscription | undefined;
  const id = randomUUID();
  const session: Session = {
    cancel: new Subject<CallCancellation>(),
    play(messages) {
      run = streamAgent({
        model,
        tools: pageTools,
        messages,
        maxConcurrency: 3,
        toolTimeout: 20_000,
        cancel: session.cancel,
      }).subscribe({
        next(e) {
          if (e.type === "text_delta") send("text", { text: e.text });
          if (e.type === "tool_input") send("input", { at: at(), ...e });
          if (e.type === "call_report") send("report", { at: at(), ...e.report });
          if (e.type === "subagent_event") send("sub", { at: at(), parent: e.toolCallId, ...nested(e.event) });
          if (e.type === "tool_event") send("tool", { at: at(), ...e.event });
          if (e.type !== "agent_halted") return;
          if (e.haltedReason === "ask_user") {
            session.waiting = e.messages;
            send("ask", { at: at(), ...e.metadata });
            return;
          }
          send("done", { at: at(), haltedReason: e.haltedReason });
          res.end();
        },
        error(e: unknown) {
          send("failed", { message: e instanceof Error ? e.message : String(e) });
          res.end();
        },
      });
    },
  };
  sessions.set(id, session);
  send("session", { session: id });
  session.play(firstMessages);
  // A closed tab cancels the run: every running handler sees its ctx.signal abort.
  req.on("close", () => {
    run?.unsubscribe();
    sessions.delete(id);
  });
}

/**
 * Resume a run halted on `ask_user`, as the contract says: the halted conversation plus the user's
 * answer, in a new run. No other state of the loop is kept between the two.
 */
function resume(session: Session, answer: string, res: ServerResponse): void {
  const waiting = session.waiting;
  if (waiting === undefined) return void res.writeHead(409).end("no question is waiting for an answer");
  session.waiting = undefined; // a second answer to the same question is refused, not run twice
  session.play([...waiting, { role: "user", content: answer }]);
  res.writeHead(204).end();
}

/** What the page shows of a subagent's event: its tool calls' states and its text. */
function nested(event: AgentEvent): Record<string, unknown> {
  if (event.type === "tool_event") return { kind: event.event.type, toolCallId: event.event.toolCallId, toolName: event.event.toolName };
  if (event.type === "text_delta") return { kind: "text", text: event.text };
  return { kind: event.type };
}

/** The request body as text: the user's answer (a short one; longer bodies are cut). */
function readText(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (text = (text + chunk).slice(0, 2_000)));
    req.on("end", () => resolve(text));
    req.on("error", reject);
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { url } = await startServer(Number(process.env.PORT ?? 3000));
  console.log(`toolrx UI example: open ${url}`);
}
