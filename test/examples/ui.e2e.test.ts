import { mkdirSync } from "node:fs";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../../examples/ui/server.js";
import { chromiumLaunchOptions } from "../support/browser.js";
import { must } from "../support/must.js";

/** Answer the agent's question with the page's form, as a user would. */
async function answer(page: Page, text: string): Promise<void> {
  await page.fill("#answer", text);
  await page.click("#ask button");
}

/** Stop the slow crawl once its progress bar shows, as a user would with its "stop" button. */
async function stopCrawlOnceItProgresses(page: Page): Promise<void> {
  await page.waitForSelector("tr[data-call-id='call_7'][data-progress]", { timeout: 30_000 });
  await page.click("tr[data-call-id='call_7'] button.stop");
}

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

  it("shows every call forming, its live state and progress, asks the user, resumes the run with the answer, and nests a subagent's events", async () => {
    const page = await browser.newPage({ viewport: { width: 1100, height: 700 } });
    await page.goto(server.url);
    // While the slow call runs, the page shows running rows and, behind the limit of 3, a queued one.
    await page.waitForSelector("tr[data-status='running']");
    await stopCrawlOnceItProgresses(page);
    await page.waitForSelector("body[data-asking='true']", { timeout: 30_000 });
    const rows = () =>
      page.$$eval("tbody tr", (trs) =>
        trs.map((tr) => ({
          id: (tr as HTMLElement).dataset.callId,
          status: (tr as HTMLElement).dataset.status,
          result: tr.querySelector(".result")?.textContent ?? "",
        })),
      );
    const firstTurn = [
      { id: "call_1", status: "done", result: '{"city":"Lisbon","tempC":18}' },
      { id: "call_2", status: "done", result: '{"city":"Reykjavik","tempC":3}' },
      { id: "call_3", status: "failed", result: "no seats left to Lisbon" },
      { id: "call_4", status: "asking", result: 'Which hotel in Lisbon? ["Harbour View","Old Town Inn"]' },
      { id: "call_5", status: "failed", result: 'Invalid arguments for tool "weather": city: Invalid input: expected string, received number' },
      { id: "call_6", status: "done", result: '{"pages":8,"file":"trip-report.pdf"}' },
      {
        id: "call_7",
        status: "cancelled",
        result: "tool crawl_reviews was cancelled while it ran (stopped by the user): it stopped before it finished, and part of its work may have happened",
      },
    ];
    expect(await rows()).toEqual(firstTurn);
    expect(await page.textContent("#said")).toBe("Checking the weather, flights and hotels. ");
    expect(await page.textContent("#ask label")).toBe("Which hotel in Lisbon?");
    expect(await page.$$eval("#choices option", (options) => options.map((o) => (o as HTMLOptionElement).value))).toEqual(["Harbour View", "Old Town Inn"]);
    expect(await page.getAttribute("tr[data-call-id='call_6']", "data-progress")).toBe("100");
    expect(await page.textContent("tr[data-call-id='call_6'] .note")).toBe("page 8 of 8");
    // Durations are stamped on the server: a 350 ms tool never shows less than 350 ms.
    const flight = await page.textContent("tr[data-call-id='call_3'] td:nth-child(5)");
    expect(Number(flight?.replace(" ms", ""))).toBeGreaterThanOrEqual(350);
    mkdirSync("test/artifacts", { recursive: true });
    await page.screenshot({ path: "test/artifacts/ui-timeline.png", fullPage: true });

    await answer(page, "Old Town Inn");
    await page.waitForSelector("body[data-done='true']", { timeout: 30_000 });
    expect(await rows()).toEqual([
      ...firstTurn.slice(0, 3),
      { id: "call_4", status: "answered", result: "Which hotel in Lisbon? → Old Town Inn" },
      ...firstTurn.slice(4),
      { id: "call_8", status: "done", result: '{"hotel":"Old Town Inn","nights":3,"confirmation":"HV-2231"}' },
      { id: "call_9", status: "done", result: "In Lisbon: fado night, tram 28 tour." },
    ]);
    // The subagent's own call and text, nested under the call that ran it.
    expect(await page.$$eval("tr[data-call-id='call_9'] ol.nested li", (items) => items.map((li) => li.textContent))).toEqual([
      "city_events: done",
      "In Lisbon: fado night, tram 28 tour.",
    ]);
    // The arguments showed as the model wrote them: half, then whole, then the complete call.
    expect(await page.getAttribute("tr[data-call-id='call_8']", "data-argument-steps")).toBe('{"hotel":"Ol|{"hotel":"Old Town Inn"}|{"hotel":"Old Town Inn"}');
    expect(await page.textContent("#said")).toBe("Booking Old Town Inn. Done: Old Town Inn is booked for 3 nights.");
    expect(await page.isHidden("#ask")).toBe(true);
    expect(await page.textContent("#state")).toMatch(/^run completed at \d+ ms$/);
    await page.screenshot({ path: "test/artifacts/ui-timeline-done.png", fullPage: true });
  }, 60_000);

  it("walks each row through its states on a 390 px phone screen, question and answer included, without overflowing it", async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(server.url);
    await stopCrawlOnceItProgresses(page);
    await page.waitForSelector("body[data-asking='true']", { timeout: 30_000 });
    const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    expect(await fits()).toBe(true);
    await answer(page, "Harbour View");
    await page.waitForSelector("body[data-done='true']", { timeout: 30_000 });
    const histories = await page.$$eval("tbody tr", (trs) => trs.map((tr) => (tr as HTMLElement).dataset.history));
    expect(histories).toEqual([
      "writing queued running done",
      "writing queued running done",
      "writing queued running failed",
      "writing queued running asking answered",
      "writing queued running failed",
      "writing queued running done",
      "writing queued running cancelled",
      "writing queued running done",
      "writing queued running done",
    ]);
    expect(await fits()).toBe(true);
    await page.screenshot({ path: "test/artifacts/ui-timeline-390.png", fullPage: true });
  }, 60_000);

  it("takes an answer only for an open page whose run is waiting for one", async () => {
    const unknown = await fetch(`${server.url}answer?session=nope`, { method: "POST", body: "yes" });
    expect(unknown.status).toBe(404);
    // A page whose run is still on its tools: nothing to answer yet.
    const events = new AbortController();
    const stream = await fetch(`${server.url}events`, { signal: events.signal });
    const first = new TextDecoder().decode((await must(stream.body).getReader().read()).value);
    const session = (JSON.parse(/^data: (.*)$/m.exec(first)?.[1] ?? "{}") as { session?: string }).session;
    const early = await fetch(`${server.url}answer?session=${session}`, { method: "POST", body: "yes" });
    events.abort();
    expect(early.status).toBe(409);
  });
});
