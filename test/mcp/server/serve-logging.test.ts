// serveTools and ctx.log: a served tool's log reaches the client as notifications/message on
// the call's request, filtered by the level the client set, judged by the SDK's own client and schema.
import type { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import type { Client as ClientV2 } from "@modelcontextprotocol/client";
import { afterEach, describe, expect, it } from "vitest";
import { type CallReport, defineTool, type LogLevel, ok } from "../../../src/index.js";
import { LINES, type SdkLine, servedThroughToolrx } from "../support/servers";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c().catch(() => {})));
});

const chatty = defineTool({
  name: "chatty",
  description: "Logs at three levels",
  schema: { type: "object", properties: {} },
  handler: (_args, ctx) => {
    for (const level of ["debug", "info", "error"] as const) ctx.log({ level, data: `${level} line`, logger: "chatty" });
    return ok("done");
  },
});

/** A client of `line` that keeps every notifications/message it receives. */
async function listening(line: SdkLine, onCallReport?: (r: CallReport) => void): Promise<{ client: ClientV1 | ClientV2; messages: unknown[] }> {
  const client = await servedThroughToolrx(line, [chatty], closers, onCallReport === undefined ? {} : { onCallReport });
  const messages: unknown[] = [];
  if (line === "v1") (client as ClientV1).setNotificationHandler(LoggingMessageNotificationSchema, (n) => void messages.push(n));
  else (client as ClientV2).setNotificationHandler("notifications/message", (n) => void messages.push(n));
  return { client, messages };
}

const call = (client: ClientV1 | ClientV2) => (client as ClientV1).callTool({ name: "chatty", arguments: {} });
const levels = (messages: unknown[]) => messages.map((m) => (m as { params: { level: LogLevel } }).params.level);

describe.each(LINES)("serveTools sends ctx.log as notifications/message (SDK %s)", (line) => {
  it("declares the logging capability, and sends every level until the client sets one", async () => {
    const { client, messages } = await listening(line);
    expect(client.getServerCapabilities()?.logging).toEqual({});
    const result = await call(client);
    expect(result.content).toEqual([{ type: "text", text: "done" }]);
    await expect.poll(() => messages.length).toBe(3);
    // The SDK's own schema is the judge of each notification.
    for (const m of messages) expect(LoggingMessageNotificationSchema.safeParse(m).success).toBe(true);
    expect(messages[0]).toEqual({ method: "notifications/message", params: { level: "debug", data: "debug line", logger: "chatty" } });
  });

  it("honours logging/setLevel: below the level nothing is sent, and onCallReport still hears every line", async () => {
    const reports: CallReport[] = [];
    const { client, messages } = await listening(line, (r) => reports.push(r));
    expect(await client.setLoggingLevel("info")).toEqual({});
    await call(client);
    await expect.poll(() => levels(messages)).toEqual(["info", "error"]);
    await client.setLoggingLevel("emergency");
    await call(client);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(levels(messages)).toEqual(["info", "error"]);
    expect(reports.filter((r) => r.type === "log")).toHaveLength(6);
  });

  it("refuses a level MCP does not have", async () => {
    const { client } = await listening(line);
    const refused: unknown = await client.setLoggingLevel("verbose" as never).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(Error);
    // 2.x's own schema refuses it before toolrx sees it; on 1.x toolrx answers invalid params.
    if (line === "v1") expect(refused).toMatchObject({ code: -32602, message: expect.stringMatching(/`level`/) });
  });
});
