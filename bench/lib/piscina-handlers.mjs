// The same trivial handler as bench/lib/isolated-handlers.mjs, as piscina calls it (the task alone).
import { lineItems } from "./isolated-handlers.mjs";

export const echo = ({ i }) => i;
export const record = ({ i }) => lineItems(i);
