import type { UIMessage } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../../examples/ui/server.js";
import { chatOn, settled } from "../support/use-chat.js";

type Part = { type: string; toolCallId?: string; state?: string; approval?: { id: string } };

function partOf(messages: readonly UIMessage[], type: string): Part | undefined {
  return messages
    .flatMap((m) => m.parts as Part[])
    .filter((p) => p.type === type)
    .at(-1);
}

describe("the useChat example's route, driven by useChat's Chat over DefaultChatTransport", () => {
  let server: Awaited<ReturnType<typeof startServer>>;

  beforeAll(async () => {
    server = await startServer(0);
  }, 60_000);

  afterAll(async () => {
    await server?.close();
  });

  it("refuses in another chat an approval whose token was minted in this one, and takes it in this one", async () => {
    const api = `${server.url}api/chat`;
    const mine = chatOn(api, { id: "chat-mine" });
    await mine.sendMessage({ text: "Plan a long weekend in Lisbon." });
    await settled(mine);
    const hotel = partOf(mine.messages, "tool-choose_hotel");
    await mine.addToolOutput({ tool: "choose_hotel", toolCallId: hotel?.toolCallId ?? "", output: "Harbour View" });
    await settled(mine);
    const booking = partOf(mine.messages, "tool-book_hotel");
    expect(booking?.state).toBe("approval-requested");
    // Another chat posts this chat's signed approval as its own: the token names the other conversation.
    const theirs = chatOn(api, { id: "chat-theirs", messages: structuredClone(mine.messages) });
    await theirs.addToolApprovalResponse({ id: booking?.approval?.id ?? "", approved: true });
    await settled(theirs);
    expect(partOf(theirs.messages, "tool-book_hotel")?.state).toBe("approval-responded");
    expect(theirs.status).toBe("error");
    expect(theirs.error?.message).toBe("An error occurred.");
    // In its own chat the same click books.
    await mine.addToolApprovalResponse({ id: booking?.approval?.id ?? "", approved: true });
    await settled(mine);
    expect(partOf(mine.messages, "tool-book_hotel")?.state).toBe("output-available");
  }, 60_000);
});
