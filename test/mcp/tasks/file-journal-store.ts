// A JournalStore in a file, for tests whose process is killed: one JSON entry a line, appended
// synchronously, so what a report wrote is on disk before the next line of the test's child runs.
import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import type { JournalEntry, JournalStore } from "../../../src/index.js";

export class FileJournalStore implements JournalStore {
  readonly #file: string;

  constructor(file: string) {
    this.#file = file;
  }

  acquire(): readonly JournalEntry[] {
    if (!existsSync(this.#file)) return [];
    return readFileSync(this.#file, "utf8")
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as JournalEntry);
  }

  append(_key: string, _owner: string, entries: readonly JournalEntry[]): void {
    appendFileSync(this.#file, entries.map((e) => `${JSON.stringify(e)}\n`).join(""));
  }

  renew(): boolean {
    return true;
  }

  release(_key: string, _owner: string, retainMs: number): void {
    if (retainMs === 0) writeFileSync(this.#file, "");
  }
}
