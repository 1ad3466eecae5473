// The public file of conversation/ (reading the conversation a run is given): the only one its sibling concepts and src/index.ts import (see ../README.md).
export { assertMessages } from "./check-messages.js";
export { lastTurnAt, openTurnOf, questionMessage, withAnswersInPlace, type OpenTurn } from "./resume.js";
