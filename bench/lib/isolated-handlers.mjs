// Handlers for bench/isolated.mjs, loaded by the pool's worker threads.
export const echo = ({ i }) => ({ type: "ok", value: i });

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
