/** A clock of the CPU time the thread that reads it has run, in ms, with the name a `cpu_time` message gives it. */
export interface ThreadCpuClock {
  /** The thread's CPU time so far, in ms (any origin: only differences count); `NaN` when a read fails. */
  readonly read: () => number;
  /** Which file it reads, said in a `cpu_time` message. */
  readonly source: string;
}

/**
 * The CPU clock of the calling thread, or `undefined` where the platform does not tell a thread
 * its own CPU time (then `cpuMs` falls back to wall time). Linux tells it in
 * `/proc/thread-self/schedstat` (first field: ns on a CPU) and, coarser, in
 * `/proc/thread-self/stat` (user and system time in clock ticks, 100 a second on Linux: a kernel
 * with another rate reads more CPU time than ran, so the budget ends no later than wall time
 * would). `thread-self` is the thread that opens the file, so each read opens it again: the
 * sandbox thread reads it only a few times per script. Like the sandbox thread's program, this
 * body is sent to the thread as text: it references nothing but `load` (the thread's `require`).
 *
 * @example
 * const clock = threadCpuClock(require);
 * clock?.read(); //=> 1234.5 (ms of CPU this thread has run)
 */
export function threadCpuClock(load: (id: string) => unknown): ThreadCpuClock | undefined {
  const { readFileSync } = load("node:fs") as { readFileSync: (path: string, encoding: "latin1") => string };
  const readers: readonly (readonly [string, (text: string) => number])[] = [
    ["/proc/thread-self/schedstat", (text) => Number(text.split(" ")[0]) / 1e6],
    // After the command's name (which may hold spaces and parentheses): state is the first field, utime the 12th, stime the 13th.
    [
      "/proc/thread-self/stat",
      (text) => {
        const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
        return (Number(fields[11]) + Number(fields[12])) * 10;
      },
    ],
  ];
  for (const [source, parse] of readers) {
    const read = (): number => {
      try {
        return parse(readFileSync(source, "latin1"));
      } catch {
        return Number.NaN;
      }
    };
    const first = read();
    if (Number.isFinite(first) && first >= 0) return { source, read };
  }
  return undefined;
}
