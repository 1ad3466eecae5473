// A client process killed mid-task and started again re-attaches to its task over Streamable
// HTTP (the server outlives it): the task is followed, not run again.
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LINES } from "../support/servers";
import { type GatedJobServer, spawnFixture, startGatedJobServer } from "./task-http-server.js";

const fixture = fileURLToPath(new URL("./task-http-client.ts", import.meta.url));
let server: GatedJobServer;

beforeAll(async () => {
  server = await startGatedJobServer();
});
afterAll(() => server.close());

/** Run the client fixture; resolves with its first line of output once `until` accepts it. */
const client = (args: string[], until: (line: string) => boolean) => spawnFixture(fixture, args, until);

describe.each(LINES)("a client process of SDK %s killed mid-task and started again", (line) => {
  it("re-attaches by the task id it reported: one run on the server, its result delivered", async () => {
    server.reset();
    const { url } = server;
    const first = client([line, url, "start"], (l) => l.includes("taskId"));
    const { taskId } = JSON.parse(await first.line) as { taskId: string };
    first.child.kill("SIGKILL");
    const second = client([line, url, taskId], (l) => l.includes("content"));
    setTimeout(() => server.open(), 500);
    expect(JSON.parse(await second.line)).toEqual({ content: "finished after 1 run(s)" });
    expect(server.runs).toBe(1);
  }, 90_000);
});
