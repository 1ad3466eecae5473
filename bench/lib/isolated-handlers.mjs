// Handlers for bench/isolated.mjs, loaded by the pool's worker threads.
export const echo = ({ i }) => ({ type: "ok", value: i });

/** A result that is data: an object of 70 values (a record with ten line items), carrying `i`. */
export const record = ({ i }) => ({ type: "ok", value: lineItems(i) });

export function lineItems(i) {
  const items = Array.from({ length: 10 }, (_, k) => ({ id: k, name: `item ${k}`, price: k * 1.5, inStock: k % 2 === 0, meta: { sku: `S${k}`, qty: i } }));
  return { i, city: "Paris", tempC: 21.5, ok: true, tags: ["a", "b", "c"], items };
}

/** Burns `ms` of CPU. */
export function burn({ ms }) {
  const until = performance.now() + ms;
  let x = 0;
  while (performance.now() < until) x++;
  return { type: "ok", value: x > 0 };
}

export function forever() {
  for (;;);
}
