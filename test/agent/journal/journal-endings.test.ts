import { Observable } from "rxjs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  defineTool,
  JournalStaleInputError,
  MemoryJournalStore,
  ok,
  RecordedEndingError,
  runAgent,
  type Message,
  type ModelEvent,
} from "../../../src/index.js";
import { input, modelCalling, refundTool } from "./seam-fixtures.js";

describe("a recorded ending", () => {
  it("plays back on the next start with the same input: the model is not asked and nothing runs", async () => {
    const { tool, runs } = refundTool();
    const store = new MemoryJournalStore();
    const journal = { store, conversationKey: "order-9" };
    const failing = () => {
      throw new Error("503 from the provider");
    };
    const first = await runAgent({ model: failing, tools: [tool], messages: input, journal });
    expect(first.haltedReason).toBe("error");
    const { model, asked } = modelCalling("refund");
    const again = await runAgent({ model, tools: [tool], messages: input, journal });
    expect(again.haltedReason).toBe("error");
    const error = (again.metadata as { error: unknown }).error;
    expect(error).toBeInstanceOf(RecordedEndingError);
    expect(error).toMatchObject({ haltedReason: "error", recorded: { name: "Error", message: "503 from the provider" } });
    expect(again.messages).toEqual(first.messages);
    expect(asked()).toBe(0);
    expect(runs).toEqual([]);
    // Going on from the ending's messages is a new input, so a new run.
    const next = await runAgent({ model, tools: [tool], messages: [...again.messages, { role: "user", content: "try again" }], journal });
    expect(next.haltedReason).toBe("approval_required");
    expect(asked()).toBe(1);
  });

  it("a cancelled ending plays back as cancelled", async () => {
    const store = new MemoryJournalStore();
    const journal = { store, conversationKey: "order-10" };
    const controller = new AbortController();
    // The user leaves while the model writes.
    const leaving = () =>
      new Observable<ModelEvent>(() => {
        controller.abort(new Error("the user left"));
      });
    const first = await runAgent({ model: leaving, tools: [], messages: input, journal, signal: controller.signal });
    expect(first.haltedReason).toBe("cancelled");
    expect(store.entries("order-10").map((e) => e.type)).toEqual(["run", "halt"]);
    const { model, asked } = modelCalling("refund");
    const again = await runAgent({ model, tools: [], messages: input, journal });
    expect(again).toMatchObject({ haltedReason: "cancelled", metadata: { reason: { recorded: { message: "the user left" } } } });
    expect(asked()).toBe(0);
  });
});

describe("an input older than the conversation's latest recorded run", () => {
  it("is refused with JournalStaleInputError, having run nothing, unless the host forks", async () => {
    const charges: number[] = [];
    const charge = defineTool({
      name: "charge",
      description: "Charge the card",
      schema: z.object({ order: z.number() }),
      handler: ({ order }) => {
        charges.push(order);
        return ok(`charged ${order}`);
      },
    });
    const { model } = modelCalling("charge");
    const store = new MemoryJournalStore();
    const journal = { store, conversationKey: "order-11" };
    const first = await runAgent({ model, tools: [charge], messages: input, journal });
    const latest: Message[] = [...first.messages, { role: "user", content: "and once more" }];
    const later = await runAgent({ model, tools: [charge], messages: latest, journal });
    expect(later.haltedReason).toBe("completed");
    expect(charges).toEqual([7, 7]);
    // A host that restored an older save.
    const stale = await runAgent({ model, tools: [charge], messages: input, journal });
    expect(stale.haltedReason).toBe("error");
    expect((stale.metadata as { error: unknown }).error).toBeInstanceOf(JournalStaleInputError);
    expect(stale.messages).toEqual(input);
    expect(charges).toEqual([7, 7]);
    // The latest input still plays back.
    expect((await runAgent({ model, tools: [charge], messages: latest, journal })).haltedReason).toBe("completed");
    expect(charges).toEqual([7, 7]);
    const forked = await runAgent({ model, tools: [charge], messages: input, journal: { ...journal, fork: true } });
    expect(forked.haltedReason).toBe("completed");
    expect(charges).toEqual([7, 7, 7]);
  });
});
