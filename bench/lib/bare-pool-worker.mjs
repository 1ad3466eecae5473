// The bare pool's thread (bench/lib/bare-pool.mjs): take a call, answer it, nothing else.
import { parentPort } from "node:worker_threads";
import { echo } from "./isolated-handlers.mjs";

parentPort.on("message", ({ id, args }) => parentPort.postMessage({ id, value: echo(args).value }));
