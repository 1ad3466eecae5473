// The bare pool's thread (bench/lib/bare-pool.mjs): take a call, answer it, nothing else.
import { parentPort } from "node:worker_threads";
import { echo, record } from "./isolated-handlers.mjs";

const handlers = { echo, record };

parentPort.on("message", ({ id, args, handler }) => parentPort.postMessage({ id, value: handlers[handler](args).value }));
