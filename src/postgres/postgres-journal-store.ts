import { type JournalEntry, JournalLeaseError, type JournalStore } from "../index.js";
import { checkClient, checkMs, checkTable, type PostgresClient } from "./postgres-client.js";

/** Options of {@link PostgresJournalStore}. */
export interface PostgresJournalStoreOptions {
  /** The entries' table; the leases live in `<table>_leases`. Default `"toolrx_journal"`. */
  readonly table?: string;
  /**
   * How long a journal is kept after its last write when no run ends it (its process died and
   * nobody resumed it), in ms; default 7 days. A run that ends keeps it `journal.retainMs`.
   */
  readonly ttlMs?: number;
}

const MS = "$3::double precision * interval '1 millisecond'";

/**
 * The agent loop's journal in Postgres (`journal: { store, conversationKey }` of `runAgent`), for
 * teams that run Postgres and not Redis: a table of entries `(key, seq, entry)` and one of leases
 * `(key, owner, lease_until, expires_at)`. Each operation is one statement (data-modifying CTEs),
 * so it is atomic without a transaction and a process that lost its lease never writes. Entries are
 * kept as the JSON text the loop wrote, byte for byte; time is the database's clock. The same
 * semantics as `RedisJournalStore`: leases, `retainMs` after a run ends, `ttlMs` for a run nobody ended.
 *
 * @example
 * const store = new PostgresJournalStore(new pg.Pool({ connectionString }));
 * await store.createTables();
 * await runAgent({ model, tools, messages, journal: { store, conversationKey: "conv-7", owner: podName } });
 */
export class PostgresJournalStore implements JournalStore {
  readonly #client: PostgresClient;
  readonly #entries: string;
  readonly #leases: string;
  readonly #ttlMs: number;

  constructor(client: PostgresClient, options: PostgresJournalStoreOptions = {}) {
    this.#client = checkClient(client, "PostgresJournalStore");
    const { table = "toolrx_journal", ttlMs = 7 * 86_400_000 } = options;
    this.#entries = checkTable(table, "table");
    this.#leases = `${this.#entries}_leases`;
    this.#ttlMs = checkMs(ttlMs, "ttlMs");
  }

  /** Create the two tables unless they exist: run it once at deploy time, or at start-up. */
  async createTables(): Promise<void> {
    await this.#client.query(
      `CREATE TABLE IF NOT EXISTS ${this.#leases} (key text PRIMARY KEY, owner text, lease_until timestamptz, expires_at timestamptz NOT NULL)`,
    );
    await this.#client.query(
      `CREATE TABLE IF NOT EXISTS ${this.#entries} (key text NOT NULL, seq bigint NOT NULL, entry text NOT NULL, PRIMARY KEY (key, seq))`,
    );
  }

  async acquire(key: string, owner: string, leaseMs: number): Promise<readonly JournalEntry[]> {
    const [L, E] = [this.#leases, this.#entries];
    // A journal past its expiry is gone: its entries are deleted as the lease is taken. `old` reads
    // the statement's snapshot without FOR UPDATE: the row `took` updates in the same statement
    // would be skipped by a locking read, and the upsert takes the row lock anyway.
    const { rows } = await this.#client.query(
      `WITH old AS (SELECT owner, expires_at <= clock_timestamp() AS expired FROM ${L} WHERE key = $1),
       took AS (
         INSERT INTO ${L} AS l (key, owner, lease_until, expires_at)
         VALUES ($1, $2, clock_timestamp() + ${MS}, clock_timestamp() + $4::double precision * interval '1 millisecond')
         ON CONFLICT (key) DO UPDATE SET owner = excluded.owner, lease_until = excluded.lease_until, expires_at = excluded.expires_at
         WHERE l.owner IS NULL OR l.owner = excluded.owner OR l.lease_until <= clock_timestamp() OR l.expires_at <= clock_timestamp()
         RETURNING 1),
       purged AS (DELETE FROM ${E} WHERE key = $1 AND EXISTS (SELECT 1 FROM took) AND EXISTS (SELECT 1 FROM old WHERE expired) RETURNING 1)
       SELECT EXISTS (SELECT 1 FROM took) AS took, (SELECT owner FROM old) AS holder,
         CASE WHEN EXISTS (SELECT 1 FROM old WHERE expired) THEN '[]'::json
              ELSE COALESCE((SELECT json_agg(entry ORDER BY seq) FROM ${E} WHERE key = $1), '[]'::json) END AS entries`,
      [key, owner, Math.ceil(leaseMs), this.#ttlMs],
    );
    const row = rows[0] as { took: boolean; holder: string | null; entries: string[] | string };
    if (!row.took) throw new JournalLeaseError(key, row.holder ?? undefined);
    return parsed(row.entries);
  }

  async append(key: string, owner: string, entries: readonly JournalEntry[]): Promise<void> {
    const [L, E] = [this.#leases, this.#entries];
    const { rows } = await this.#client.query(
      `WITH lease AS (
         UPDATE ${L} SET expires_at = clock_timestamp() + ${MS}
         WHERE key = $1 AND owner = $2 AND lease_until > clock_timestamp() RETURNING key),
       added AS (
         INSERT INTO ${E} (key, seq, entry)
         SELECT $1, (SELECT COALESCE(max(seq), 0) FROM ${E} WHERE key = $1) + e.ord, e.entry
         FROM lease, json_array_elements_text($4::json) WITH ORDINALITY AS e(entry, ord) RETURNING 1)
       SELECT EXISTS (SELECT 1 FROM lease) AS held, (SELECT owner FROM ${L} WHERE key = $1) AS holder, (SELECT count(*) FROM added) AS added`,
      [key, owner, this.#ttlMs, JSON.stringify(entries.map((e) => JSON.stringify(e)))],
    );
    const row = rows[0] as { held: boolean; holder: string | null };
    if (!row.held) throw new JournalLeaseError(key, row.holder ?? undefined);
  }

  async renew(key: string, owner: string, leaseMs: number): Promise<boolean> {
    const { rows } = await this.#client.query(
      `UPDATE ${this.#leases} SET lease_until = clock_timestamp() + ${MS} WHERE key = $1 AND owner = $2 AND lease_until > clock_timestamp() RETURNING 1`,
      [key, owner, Math.ceil(leaseMs)],
    );
    return rows.length === 1;
  }

  async release(key: string, owner: string, retainMs: number): Promise<void> {
    const [L, E] = [this.#leases, this.#entries];
    const held = "key = $1 AND owner = $2 AND lease_until > clock_timestamp()";
    if (retainMs <= 0) {
      await this.#client.query(`WITH gone AS (DELETE FROM ${L} WHERE ${held} RETURNING 1) DELETE FROM ${E} WHERE key = $1 AND EXISTS (SELECT 1 FROM gone)`, [
        key,
        owner,
      ]);
      return;
    }
    const until = retainMs === Number.POSITIVE_INFINITY ? "'infinity'::timestamptz" : `clock_timestamp() + ${MS}`;
    await this.#client.query(`UPDATE ${L} SET owner = NULL, lease_until = NULL, expires_at = ${until} WHERE ${held}`, [
      key,
      owner,
      ...(retainMs === Number.POSITIVE_INFINITY ? [] : [Math.ceil(retainMs)]),
    ]);
  }

  /** Every entry kept for `key` (none once it expired), for inspection and tests. */
  async entries(key: string): Promise<readonly JournalEntry[]> {
    const { rows } = await this.#client.query(
      `SELECT COALESCE(json_agg(e.entry ORDER BY e.seq), '[]'::json) AS entries FROM ${this.#entries} e
       WHERE e.key = $1 AND NOT EXISTS (SELECT 1 FROM ${this.#leases} l WHERE l.key = $1 AND l.expires_at <= clock_timestamp())`,
      [key],
    );
    return parsed((rows[0] as { entries: string[] | string }).entries);
  }

  /** Forget `key` now, lease and entries (a conversation deleted by its user). */
  async delete(key: string): Promise<void> {
    await this.#client.query(`WITH gone AS (DELETE FROM ${this.#leases} WHERE key = $1) DELETE FROM ${this.#entries} WHERE key = $1`, [key]);
  }

  /** Delete every journal past its expiry and not leased; returns how many. Run it now and then (Redis expires keys itself). */
  async purgeExpired(): Promise<number> {
    const { rows } = await this.#client.query(
      `WITH gone AS (DELETE FROM ${this.#leases} WHERE expires_at <= clock_timestamp() AND (lease_until IS NULL OR lease_until <= clock_timestamp()) RETURNING key),
       entries AS (DELETE FROM ${this.#entries} WHERE key IN (SELECT key FROM gone))
       SELECT count(*)::int AS n FROM gone`,
    );
    return Number((rows[0] as { n: number }).n);
  }
}

/** The entries' JSON texts, as the driver gives a `json` column back (parsed, or as text). */
function parsed(entries: string[] | string): JournalEntry[] {
  const texts = typeof entries === "string" ? (JSON.parse(entries) as string[]) : entries;
  return texts.map((text) => JSON.parse(text) as JournalEntry);
}
