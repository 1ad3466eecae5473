import type { ApprovalLedger } from "../index.js";
import { checkClient, checkMs, checkTable, type PostgresClient } from "./postgres-client.js";

/** Options of {@link PostgresApprovalLedger}. */
export interface PostgresApprovalLedgerOptions {
  /** The table; default `"toolrx_approvals"`. Create it with {@link PostgresApprovalLedger.createTable}. */
  readonly table?: string;
  /** How long a consumed key is remembered when `consume` is given none, in ms; default 30 days. */
  readonly ttlMs?: number;
}

/**
 * The approval ledger in Postgres, shared by every process of a conversation: an approved call
 * runs once even when two processes resume the same conversation at once. One table of
 * `(key, expires_at)`; `consume` is one `INSERT … ON CONFLICT` that takes a key only when it is
 * new or its time ran out, so it is atomic without a transaction. Time is the database's clock,
 * so the processes' own clocks need not agree.
 *
 * @example
 * const ledger = new PostgresApprovalLedger(new pg.Pool());
 * await ledger.createTable();
 * await ledger.consume("conv-7/call_1"); // true
 * await ledger.consume("conv-7/call_1"); // false
 */
export class PostgresApprovalLedger implements ApprovalLedger {
  readonly #client: PostgresClient;
  readonly #table: string;
  readonly #ttlMs: number;

  constructor(client: PostgresClient, options: PostgresApprovalLedgerOptions = {}) {
    this.#client = checkClient(client, "PostgresApprovalLedger");
    const { table = "toolrx_approvals", ttlMs = 30 * 86_400_000 } = options;
    this.#table = checkTable(table, "table");
    this.#ttlMs = checkMs(ttlMs, "ttlMs");
  }

  /** Create the table (and its index) unless it exists: run it once at deploy time, or at start-up. */
  async createTable(): Promise<void> {
    await this.#client.query(`CREATE TABLE IF NOT EXISTS ${this.#table} (key text PRIMARY KEY, expires_at timestamptz NOT NULL)`);
    await this.#client.query(`CREATE INDEX IF NOT EXISTS ${this.#table.replace(".", "_")}_expires ON ${this.#table} (expires_at)`);
  }

  async consume(key: string, ttlMs: number = this.#ttlMs): Promise<boolean> {
    if (typeof key !== "string") throw new TypeError(`Expected \`key\` to be a string, got ${typeof key}`);
    if (!(typeof ttlMs === "number" && Number.isFinite(ttlMs) && ttlMs > 0)) {
      throw new TypeError(`Expected \`ttlMs\` to be a positive finite number of milliseconds, got ${String(ttlMs)}`);
    }
    const { rows } = await this.#client.query(
      `INSERT INTO ${this.#table} AS a (key, expires_at) VALUES ($1, clock_timestamp() + $2::double precision * interval '1 millisecond')
       ON CONFLICT (key) DO UPDATE SET expires_at = excluded.expires_at WHERE a.expires_at <= clock_timestamp()
       RETURNING 1 AS took`,
      [key, Math.ceil(ttlMs)],
    );
    return rows.length === 1;
  }

  /** Delete the keys whose time ran out (they no longer refuse anything); returns how many. Run it now and then. */
  async purgeExpired(): Promise<number> {
    const { rows } = await this.#client.query(`DELETE FROM ${this.#table} WHERE expires_at <= clock_timestamp() RETURNING 1`);
    return rows.length;
  }
}
