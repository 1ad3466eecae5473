// The public file of turn/ (one turn): the only one its sibling concepts and src/index.ts import (see ../README.md).
export { Turn } from "./turn.js";
export type { TurnOutcome } from "./turn-outcome.js";
