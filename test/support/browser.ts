import { existsSync } from "node:fs";

const flags = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * The Chromium to drive: `CHROMIUM_PATH`, else Debian's package at /usr/bin/chromium, else the
 * build shipped inside the @sparticuz/chromium npm package, so a machine that reaches only
 * the npm registry can still run the browser tests.
 */
export async function chromiumLaunchOptions(): Promise<{ executablePath: string; args: string[]; source: string }> {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv !== undefined && fromEnv !== "") return { executablePath: fromEnv, args: flags, source: "CHROMIUM_PATH" };
  if (existsSync("/usr/bin/chromium")) return { executablePath: "/usr/bin/chromium", args: flags, source: "debian" };
  const { default: bundled } = await import("@sparticuz/chromium");
  return { executablePath: await bundled.executablePath(), args: [...bundled.args, ...flags], source: "@sparticuz/chromium" };
}
