import fc from "fast-check";
import type { SeamCall, SeamKind, SeamScenario } from "./seam-harness.js";

/**
 * Scenarios of the seam property: up to three model turns of up to three calls of `kinds`, and
 * up to four kills, each at one of the first steps of a life (a life of this size takes ten to
 * thirty), before or after it, a few after the clock jumped past the tokens' lifetime.
 */
export function seamScenario(kinds: readonly SeamKind[]): fc.Arbitrary<SeamScenario> {
  return fc
    .record({
      plan: fc.array(fc.array(fc.constantFrom(...kinds), { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 }),
      kills: fc.array(fc.record({ step: fc.nat(12), after: fc.boolean(), late: fc.nat(6).map((x) => x === 0) }), { maxLength: 6 }),
    })
    .map(({ plan, kills }) => {
      let n = 0;
      return { plan: plan.map((turn) => turn.map((kind): SeamCall => ({ kind, n: n++ }))), kills };
    });
}
