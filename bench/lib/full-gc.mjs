/**
 * A full garbage collection, in a process started without `--expose-gc` (the bench's main
 * process): V8's flag set at run time, and `gc` taken from a fresh context, where the flag now
 * installs it. Used before each measured deadline run, for every system alike, so that no run
 * pays for the garbage the rows before it left: a run then pays only for its own.
 */
import v8 from "node:v8";
import vm from "node:vm";

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc");

/** Collect everything collectable now: the next measured window starts on a clean heap. */
export function fullGc() {
  gc();
}
