import { mkdirSync } from "node:fs";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../../examples/ui/server.js";
import { chromiumLaunchOptions } from "../support/browser.js";

/** Every call row the page shows, by tool, with its state. */
async function rows(page: Page): Promise<Record<string, string>> {
  return page.$$eval(".call", (els) => Object.fromEntries(els.map((el) => [el.getAttribute("data-tool") ?? "", el.getAttribute("data-state") ?? ""])));
}

describe("the useChat example in a real browser", () => {
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

  it("shows every call and its progress, takes the question's answer and the approval in the page, and the run completes, on a 390 px screen", async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(server.url);
    await page.click("#send");
    // The calls stream in, each with its state; the report's progress bar moves.
    await page.waitForSelector(".call[data-tool='export_report'] progress[data-progress]", { timeout: 30_000 });
    await page.waitForSelector(".call[data-tool='weather'][data-state='output-available']", { timeout: 30_000 });
    // The question, answered in the page (addToolOutput): the conversation goes back by itself.
    await page.waitForSelector(".call[data-tool='choose_hotel'] form.ask", { timeout: 30_000 });
    // The run halts once every call of the turn is done: then the page answers.
    await page.waitForSelector("#status[data-status='ready']", { timeout: 30_000 });
    expect(await page.textContent(".call[data-tool='choose_hotel'] label")).toBe("Which hotel in Lisbon?");
    expect(await rows(page)).toEqual({ weather: "output-available", export_report: "output-available", choose_hotel: "input-available" });
    await page.fill(".call[data-tool='choose_hotel'] input.answer", "Harbour View");
    await page.click(".call[data-tool='choose_hotel'] button");
    // The booking needs approval: given in the page (addToolApprovalResponse), the run resumes.
    await page.waitForSelector(".call[data-tool='book_hotel'][data-state='approval-requested'] button.approve", { timeout: 30_000 });
    await page.click(".call[data-tool='book_hotel'] button.approve");
    await page.waitForSelector(".call[data-tool='book_hotel'][data-state='output-available']", { timeout: 30_000 });
    await page.waitForFunction(() => document.body.textContent?.includes("Have a good trip!"), undefined, { timeout: 30_000 });
    await page.waitForSelector("#status[data-status='ready']", { timeout: 30_000 });
    expect(await page.textContent(".call[data-tool='book_hotel'] .output")).toContain("HV-2231");
    expect(await rows(page)).toEqual({
      weather: "output-available",
      export_report: "output-available",
      choose_hotel: "output-available",
      book_hotel: "output-available",
    });
    // Nothing wider than the phone's screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    mkdirSync("test/artifacts", { recursive: true });
    await page.screenshot({ path: "test/artifacts/ui-usechat-390.png", fullPage: true });
    await page.close();
  }, 90_000);

  it("stops one call from its row: that call alone is answered cancelled, and the rest of the turn goes on", async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(server.url);
    await page.click("#send");
    await page.waitForSelector(".call[data-tool='export_report'] progress[data-progress]", { timeout: 30_000 });
    await page.click(".call[data-tool='export_report'] button.stop-call");
    await page.waitForSelector(".call[data-tool='export_report'][data-state='output-error']", { timeout: 30_000 });
    // The run was not stopped: the turn ends as it would, halted on the hotel question.
    await page.waitForSelector(".call[data-tool='choose_hotel'] form.ask", { timeout: 30_000 });
    await page.waitForSelector("#status[data-status='ready']", { timeout: 30_000 });
    expect(await rows(page)).toEqual({ weather: "output-available", export_report: "output-error", choose_hotel: "input-available" });
    expect(await page.textContent(".call[data-tool='export_report'] .error")).toMatch(/cancelled/);
    await page.close();
  }, 60_000);

  it("refuses a stop it cannot place: malformed (400), or a chat with no run streaming (404)", async () => {
    const post = (body: string) => fetch(new URL("/api/cancel", server.url), { method: "POST", body });
    expect((await post(JSON.stringify({ chatId: "c" }))).status).toBe(400);
    expect((await post(JSON.stringify({ chatId: "nobody", toolCallId: "call_report" }))).status).toBe(404);
  });

  it("stops the run from the page: the handler's signal is aborted and the page is ready again", async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(server.url);
    await page.click("#send");
    await page.waitForSelector(".call[data-tool='export_report'] progress[data-progress]", { timeout: 30_000 });
    await page.click("#stop");
    await page.waitForSelector("#status[data-status='ready']", { timeout: 30_000 });
    const state = await page.getAttribute(".call[data-tool='export_report']", "data-state");
    await new Promise((r) => setTimeout(r, 1_500));
    // The report never finished: its handler was aborted with the response, so no output ever came.
    expect(state).not.toBe("output-available");
    expect(await page.getAttribute(".call[data-tool='export_report']", "data-state")).toBe(state);
    await page.close();
  }, 60_000);
});
