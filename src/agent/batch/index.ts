// The public file of batch/ (one turn's tool calls): the only one its sibling concepts and src/index.ts import (see ../README.md).
export { batchEnvOf, type BatchEnv, type BatchSink } from "./batch-env.js";
export { CallBatch } from "./call-batch.js";
export { TurnRunners } from "./turn-runner.js";
