// A handler module for the matrix's worker-thread tool (toolrx/node loads it in its thread).
export function fib({ n }) {
  let [a, b] = [0, 1];
  for (let i = 0; i < n; i++) [a, b] = [b, a + b];
  return { type: "ok", value: a };
}
