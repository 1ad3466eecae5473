import { closestName } from "./closest-name.js";

/**
 * The closed set of keys an object given by a user may have: run options, a tool definition, a
 * tool's `control`. A key outside it is a typo or something meant for elsewhere, and running on
 * with a default in its place is how a typo'd `needsApproval` lets a payment run unasked.
 */
export interface KnownKeys {
  /** In the order they are listed to the user. */
  readonly names: readonly string[];
  readonly set: ReadonlySet<string>;
  /** Keys that belong somewhere else, and where: `{ execute: "handler" }`. */
  readonly hints: Readonly<Record<string, string>>;
}

/**
 * A {@link KnownKeys} from a record with one entry per key: typed as `Record<keyof T, true>` at the
 * call site, the compiler fails there when a key is added to `T` and not to the record.
 */
export function knownKeys(keys: Readonly<Record<string, true>>, hints: Readonly<Record<string, string>> = {}): KnownKeys {
  const names = Object.freeze(Object.keys(keys));
  return Object.freeze({ names, set: new Set(names), hints: Object.freeze({ ...hints }) });
}

/** How {@link assertKnownKeys} names what it checks. */
export interface KeyWording {
  /** `"option"` or `"key"`: the message says `Unknown option \`x\``, and lists "the options". */
  readonly noun: string;
  /** Where the key was found, read after the key: ` in tool "pay"`. Default none. */
  readonly where?: string;
  /** Keys a caller adds on top of `keys` (the agent loop's `model`, `tools`, ...). */
  readonly extra?: ReadonlySet<string>;
}

/**
 * Refuse an object with a key outside `keys`. TypeScript catches one only in an object literal;
 * a spread, a config read at run time or plain JavaScript reaches here unchecked.
 *
 * @throws {TypeError} naming the key, what it was probably meant to be, and the keys there are.
 *
 * @example
 * assertKnownKeys({ needApproval: true }, TOOL_KEYS, { noun: "key", where: ' in tool "pay"' });
 * // TypeError: Unknown key `needApproval` in tool "pay" (did you mean `needsApproval`?); the keys are `name`, ...
 */
export function assertKnownKeys(value: object, keys: KnownKeys, wording: KeyWording): void {
  const { extra } = wording;
  for (const key in value) {
    if (!Object.hasOwn(value, key) || keys.set.has(key) || extra?.has(key)) continue;
    throw unknownKey(key, keys, wording);
  }
}

function unknownKey(key: string, keys: KnownKeys, { noun, where = "", extra }: KeyWording): TypeError {
  const names = extra === undefined ? keys.names : [...keys.names, ...extra];
  const meant =
    (Object.hasOwn(keys.hints, key) ? keys.hints[key] : undefined) ??
    closestName(key, names) ??
    names.find((name) => name.toLowerCase().endsWith(key.toLowerCase()));
  const hint = meant === undefined ? "" : ` (did you mean \`${meant}\`?)`;
  return new TypeError(`Unknown ${noun} \`${key}\`${where}${hint}; the ${noun}s are ${names.map((n) => `\`${n}\``).join(", ")}`);
}
