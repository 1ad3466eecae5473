/**
 * Absolute file paths and `file:` URLs (POSIX and Windows): what a module loader's error names.
 * A path starts after a space, a quote or a bracket, never inside a word or another URL.
 */
const PATHS = /file:\/\/[^\s'"`)]+|(?<![\w.:/\\-])\/(?:[^\s'"`/):]+\/)+[^\s'"`/):]*|\b[A-Za-z]:\\(?:[^\s'"`\\:]+\\)+[^\s'"`\\:]*/g;

/**
 * `text` with every absolute file path and `file:` URL cut down to its file name: what a model
 * may read of an error a worker met loading a module. Where a project lives on disk is not the
 * model's business; the host still has the full error as the `cause` underneath.
 *
 * @example
 * withoutPaths('Unknown file extension ".ts" for /home/me/app/tools/fib.ts'); // 'Unknown file extension ".ts" for fib.ts'
 */
export function withoutPaths(text: string): string {
  return text.replace(PATHS, (path) => path.replace(/[/\\]+$/, "").replace(/^.*[/\\]/, ""));
}
