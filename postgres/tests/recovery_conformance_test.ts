/**
 * The core's recovery conformance kit against `PostgresRecoveryStore`,
 * `PostgresCancelDelivery` and `PostgresReplayLog`: on the real server (one
 * adapter instance and one connection pool per simulated worker: the
 * locking is the database's) and on PGlite (one connection shared by every
 * worker: proves the SQL and the store logic on PostgreSQL 18, not the
 * locking, since transactions there run one at a time).
 *
 * @module
 */
import { recoveryConformanceCases } from "@papercusp/chat-protocol/recovery/testing";
import { recoveryHost } from "./_helpers/hosts.ts";

for (const backend of ["server", "pglite"] as const) {
  const cases = recoveryConformanceCases(() => recoveryHost(backend), {
    prefix: `recovery kit [${backend}]: `,
    concurrency: backend === "server" ? 8 : 4,
  });
  for (const c of cases) {
    Deno.test({
      name: c.name,
      ignore: c.skip !== undefined,
      sanitizeResources: false,
      sanitizeOps: false,
      fn: () => c.run(),
    });
  }
}
