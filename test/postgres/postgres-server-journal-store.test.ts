import pg from "pg";
import { afterAll, beforeAll, describe } from "vitest";
import { PostgresJournalStore } from "../../src/postgres/index.js";
import { journalStoreContract } from "../support/journal-store-contract.js";
import { postgresUnavailable, startPostgres, type TestPostgres } from "./postgres-server.js";

// The contract every journal store keeps (test/support/journal-store-contract.ts), on a real
// Postgres server (Debian's, a cluster of its own) through `pg`'s Pool: unlike PGlite's one
// connection, statements run side by side on several, as in production.
describe.skipIf(postgresUnavailable !== undefined)("PostgresJournalStore (a Postgres server through pg.Pool)", () => {
  let server: TestPostgres;
  let pool: pg.Pool;
  let store: PostgresJournalStore;
  beforeAll(async () => {
    server = await startPostgres();
    pool = new pg.Pool({ connectionString: server.url, max: 4 });
    store = new PostgresJournalStore(pool);
    await store.createTables();
  }, 120_000); // initdb and the server's start: seconds on a busy machine
  afterAll(async () => {
    await pool?.end();
    await server?.stop();
  });

  // Leases and retention in seconds, wide of a loaded 2-core machine's pauses.
  journalStoreContract(
    () => ({
      store,
      unitMs: 2_000,
      elapse: (ms) => new Promise((r) => setTimeout(r, ms)),
      withTtl: (ttlMs) => new PostgresJournalStore(pool, { ttlMs }),
      purgeExpired: () => store.purgeExpired(),
    }),
    { ttlMs: true },
  );
});
