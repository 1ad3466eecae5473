// What a handler's return becomes, as a call uses it (see README.md).
export { outcomeOf, timeoutOutcome, type Answering } from "./outcome.js";
export { DeadlineTimeout, exitResult, validationTimeout, type Deadline, type DeadlineFacts } from "./run-errors.js";
export { tailWithinBudget } from "./output-budget.js";
