/**
 * Test helper: loads the spec's constructed sample pairs from fixtures/agents/.
 *
 * @module
 */
import { readFixture } from "../_helpers/golden.ts";
import type { BrokerEvent, BrokerSession } from "../../agents.ts";

/** One saved `/api/sessions` + `/api/history` pair. */
export interface SamplePair {
  sessions: BrokerSession[];
  brokerUptimeMs: number;
  events: BrokerEvent[];
}

/** Load sample `n` (1, 2 or 3) of spec agents.md §10. */
export async function loadSample(n: 1 | 2 | 3): Promise<SamplePair> {
  const s = JSON.parse(await readFixture(`agents/sample${n}_sessions.json`));
  const h = JSON.parse(await readFixture(`agents/sample${n}_history.json`));
  return { sessions: s.sessions, brokerUptimeMs: s.brokerUptimeMs, events: h.items };
}

/** The seat prefixes the spec's expected values were computed with. */
export const SEATS = [{ seat: "titan", prefix: "tpc" }] as const;
