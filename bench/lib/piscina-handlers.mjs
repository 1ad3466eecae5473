// The same trivial handler as bench/lib/isolated-handlers.mjs, as piscina calls it (the task alone).
export const echo = ({ i }) => i;
