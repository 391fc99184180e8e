/** The store contract cases (tests/_helpers/store_contract.ts) on the memory reference stores. */
import { MemoryRecoveryHost } from "../../recovery.ts";
import { MemoryInteractionStore } from "../../interactions.ts";
import { INTERACTION_CASES, RECOVERY_CASES } from "../_helpers/store_contract.ts";

for (const c of RECOVERY_CASES) {
  Deno.test(`store contract (memory recovery): ${c.name}`, async () => {
    const host = new MemoryRecoveryHost();
    await c.run({
      seams: host.seams(),
      grant: (p, t) => host.grant(p, t),
      close: async () => {},
    });
  });
}

for (const c of INTERACTION_CASES) {
  Deno.test(`store contract (memory interactions): ${c.name}`, async () => {
    await c.run({ store: new MemoryInteractionStore(), close: async () => {} });
  });
}
