/**
 * The core's interaction store conformance kit against
 * `PostgresInteractionStore`: on the real server (one adapter instance and
 * one connection pool per simulated worker) and on PGlite (one shared
 * connection: the SQL and the store logic, not the locking).
 *
 * @module
 */
import { interactionStoreConformance } from "@papercusp/chat-protocol/interactions/testing";
import { interactionHarness } from "./_helpers/hosts.ts";

for (const backend of ["server", "pglite"] as const) {
  const cases = interactionStoreConformance(() => interactionHarness(backend), {
    prefix: `interactions kit [${backend}]: `,
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
