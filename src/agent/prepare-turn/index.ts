// The public file of prepare-turn/ (the prepareTurn hook and the ready-made ones): the only one its sibling concepts and src/index.ts import (see ../README.md).
export { chainTurns } from "./chain-turns.js";
export { clearToolResults, type ClearToolResultsOptions } from "./clear-tool-results.js";
export { modelTurnsIn, type PrepareTurn, type TurnInfo, type TurnPlan } from "./prepare-turn.js";
