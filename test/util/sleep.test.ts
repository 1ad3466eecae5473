import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { sleep } from "../../src/util/sleep.js";

describe("sleep", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  describe("when nothing aborts", () => {
    it("resolves after `ms`, not before, and takes its abort listener off", async () => {
      const signal = new AbortController().signal;
      const removed = vi.spyOn(signal, "removeEventListener");
      let done = false;
      const slept = sleep(1_000, signal).then(() => (done = true));
      await vi.advanceTimersByTimeAsync(999);
      expect(done).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await slept;
      expect(done).toBe(true);
      expect(removed).toHaveBeenCalledWith("abort", expect.any(Function));
    });
  });

  describe("when the signal aborts while it waits", () => {
    it("rejects with the signal's own reason at once and clears its timer", async () => {
      const controller = new AbortController();
      const slept = sleep(60_000, controller.signal);
      expect(vi.getTimerCount()).toBe(1);
      const reason = { why: "stopped" };
      controller.abort(reason);
      await expect(slept).rejects.toBe(reason);
      expect(vi.getTimerCount()).toBe(0);
    });
  });

  describe("when the signal has aborted already", () => {
    it("rejects with its reason without setting a timer (the abort event will not fire again)", async () => {
      const reason = new Error("gone");
      const slept = sleep(60_000, AbortSignal.abort(reason));
      expect(vi.getTimerCount()).toBe(0);
      await expect(slept).rejects.toBe(reason);
    });
  });
});
