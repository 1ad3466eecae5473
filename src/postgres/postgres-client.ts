import { describe } from "../util/safe.js";

/**
 * What the Postgres stores need of a client: one parameterised query at a time, answering its
 * rows. `pg`'s `Pool` and `Client`, and PGlite, are all this shape, so no driver is imported here:
 * you bring the one you already run (and close it yourself).
 */
export interface PostgresClient {
  query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

/** `client` checked: a {@link PostgresClient}, or a `TypeError` naming what it got. */
export function checkClient(client: unknown, owner: string): PostgresClient {
  if (typeof (client as Partial<PostgresClient> | null)?.query !== "function") {
    throw new TypeError(
      `Expected the client of \`${owner}\` to be a pg Pool or Client, or PGlite (anything with query(text, values)), got ${describe(client)}`,
    );
  }
  return client as PostgresClient;
}

/** A table name checked as a plain SQL identifier (optionally schema-qualified): it is spliced into the SQL. */
export function checkTable(name: unknown, option: string): string {
  if (typeof name !== "string" || !/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/.test(name)) {
    throw new TypeError(`Expected \`${option}\` to be a table name (letters, digits and _, optionally schema.table), got ${describe(name)}`);
  }
  return name;
}

/** A positive integer of milliseconds, or a `TypeError` naming the option. */
export function checkMs(value: unknown, option: string): number {
  if (!(typeof value === "number" && Number.isInteger(value) && value > 0)) {
    throw new TypeError(`Expected \`${option}\` to be a positive integer of milliseconds, got ${describe(value)}`);
  }
  return value;
}
