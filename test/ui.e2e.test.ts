import { mkdirSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../examples/ui/server.js";
import { chromiumLaunchOptions } from "./browser.js";

describe("the UI example in a real browser", () => {
  let browser: Browser;
  let server: Awaited<ReturnType<typeof startServer>>;

  beforeAll(async () => {
    server = await startServer(0);
    const { executablePath, args } = await chromiumLaunchOptions();
    browser = await chromium.launch({ executablePath, args });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("shows every tool's live state and ends with done, failed and asking-user rows", async () => {
    const page = await browser.newPage({ viewport: { width: 1100, height: 520 } });
    await page.goto(server.url);
    // While the slow call runs, the page shows running rows and, behind the limit of 3, a queued one.
    await page.waitForSelector("tr[data-status='running']");
    await page.waitForSelector("body[data-done='true']", { timeout: 30_000 });
    const rows = await page.$$eval("tbody tr", (trs) =>
      trs.map((tr) => ({
        id: (tr as HTMLElement).dataset.callId,
        status: (tr as HTMLElement).dataset.status,
        result: tr.children[5]?.textContent ?? "",
      })),
    );
    expect(rows).toEqual([
      { id: "call_1", status: "done", result: '{"city":"Lisbon","tempC":18}' },
      { id: "call_2", status: "done", result: '{"city":"Reykjavik","tempC":3}' },
      { id: "call_3", status: "failed", result: "no seats left to Lisbon" },
      { id: "call_4", status: "asking", result: 'Which hotel in Lisbon? ["Harbour View","Old Town Inn"]' },
      { id: "call_5", status: "failed", result: 'Invalid arguments for tool "weather": city: Invalid input: expected string, received number' },
    ]);
    expect(await page.textContent("#state")).toMatch(/^turn finished in \d+ ms$/);
    mkdirSync("test/artifacts", { recursive: true });
    await page.screenshot({ path: "test/artifacts/ui-timeline.png", fullPage: true });
  }, 60_000);

  it("walks each row through its states: queued, running, then its outcome", async () => {
    const page = await browser.newPage();
    await page.goto(server.url);
    await page.waitForSelector("body[data-done='true']", { timeout: 30_000 });
    const histories = await page.$$eval("tbody tr", (trs) => trs.map((tr) => (tr as HTMLElement).dataset.history));
    expect(histories).toEqual([
      "queued running done",
      "queued running done",
      "queued running failed",
      "queued running asking",
      "queued running failed",
    ]);
  }, 60_000);
});
