/**
 * What every benchmarked system implements. Each gets the same calls and the same handler; the
 * harness measures `run` and checks that the handler ran exactly once per call.
 *
 * @typedef {{ id: string, name: "work", arguments: { i: number } }} Call
 * @typedef {(args: { i: number }, signal?: AbortSignal) => unknown} Handler
 *   The tool body: a value, or a Promise of one (which may never settle).
 * @typedef {object} Setup
 * @property {Handler} handler
 * @property {number} concurrency the limit, for systems that have one
 * @property {number} [deadlineMs] the per-tool deadline, for systems that have one; when absent,
 *   a system whose default has a deadline (toolrx: 30 s) keeps it
 * @property {(i: number) => void} [onSettled] called when call `i`'s outcome is known outside
 * @property {boolean} [collect] false: consume results without holding them (streaming systems)
 * @property {(results: unknown) => void} [keep] given what a collecting run returns to its user,
 *   so the memory it holds can be measured
 * @typedef {object} System
 * @property {string} name
 * @property {"stream" | "batch"} [kind] what it gives its user: events as they happen, or the
 *   collected results; it is measured against the physical limit of the same kind
 * @property {boolean} [framework] a whole agent framework (its runs are grouped apart from the light pools)
 * @property {boolean} limitsConcurrency whether the library itself bounds concurrent tools
 * @property {boolean} perToolDeadline whether the library has a per-tool deadline
 * @property {boolean} [reportsEachCall] false when outcomes are only seen once the whole run is done
 * @property {{ quick?: number, full?: number }} [maxCalls] the most calls it can run in one go in reasonable time
 * @property {boolean} [streams] whether `run` also takes an iterable of calls and streams it
 * @property {string | undefined} note a caveat printed with the system's rows
 * @property {string} [deadlineNote] how the system's deadline works, for the deadline rows
 * @property {(setup: Setup) => Promise<{ run(calls: Call[] | Iterable<Call>): Promise<number> }>} prepare
 */
export {};
