// What a handler's return becomes, as a call uses it (see README.md).
export { outcomeOf } from "./outcome.js";
export { tailWithinBudget } from "./output-budget.js";
