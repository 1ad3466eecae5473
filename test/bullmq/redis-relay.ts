import { createConnection, createServer, type Server, type Socket } from "node:net";
import { freePort } from "./redis.js";

/** A TCP relay to Redis that holds back, in order, one named connection's traffic one way until released. */
export interface RedisRelay {
  /** The URL to give the client instead of Redis's own. */
  readonly url: string;
  /** Hold from now on, or from the first chunk that contains `startingAt`. */
  hold(startingAt?: string): void;
  /** True once something is held. */
  holding(): boolean;
  /** Send everything held, in order, and stop holding. */
  release(): void;
  close(): void;
}

/**
 * A relay whose connection named `connection` (the name a toolrx client gives itself with
 * `CLIENT SETNAME`, e.g. `toolrx:producer:` or `toolrx:events:`) can have its `commands` (what the
 * client sends) or its `replies` (what Redis sends back) held: a client then learns of something
 * later than its other connections do, or a command is on its way and has not landed, for as long
 * as a test likes, as on a loaded machine.
 */
export async function redisRelay(redisPort: number, connection: string, direction: "commands" | "replies"): Promise<RedisRelay> {
  const port = await freePort();
  let armed: { startingAt: string | undefined } | undefined;
  let held = false;
  const waiting: Array<() => void> = [];
  const sockets: Socket[] = [];
  const server: Server = createServer((client) => {
    const upstream = createConnection({ port: redisPort, host: "127.0.0.1" });
    sockets.push(client, upstream);
    let named = false;
    const pass = (chunk: Buffer, ours: boolean, write: () => void) => {
      if (ours && named && armed !== undefined && (armed.startingAt === undefined || chunk.includes(armed.startingAt))) held = true;
      if (ours && named && held) waiting.push(write);
      else write();
    };
    client.on("data", (chunk: Buffer) => {
      if (chunk.includes(connection)) named = true;
      pass(chunk, direction === "commands", () => upstream.write(chunk));
    });
    upstream.on("data", (chunk: Buffer) => pass(chunk, direction === "replies", () => client.write(chunk)));
    for (const [a, b] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      a.on("error", () => b.destroy());
      a.on("close", () => b.destroy());
    }
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `redis://127.0.0.1:${port}`,
    hold: (startingAt) => {
      armed = { startingAt };
    },
    holding: () => held,
    release: () => {
      armed = undefined;
      held = false;
      for (const write of waiting.splice(0)) write();
    },
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}
