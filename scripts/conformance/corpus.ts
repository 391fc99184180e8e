/**
 * Every case group of the corpus, in file order.
 *
 * @module
 */
import type { CaseGroup } from "./_def.ts";
import { SCHEMA_GROUPS } from "./schema.ts";
import { FOLD_GROUPS } from "./fold.ts";
import { LIFECYCLE_MATRIX_GROUPS } from "./lifecycle_matrix.ts";
import { SSE_GROUPS } from "./sse.ts";
import { NEGOTIATION_GROUPS } from "./negotiation.ts";
import { LEGACY_GROUPS } from "./legacy.ts";
import { REPLAY_GROUPS } from "./replay.ts";
import { BLOCKS_GROUPS } from "./blocks.ts";
import { CARD_ANSWER_GROUPS } from "./card_answer.ts";
import { STRICT_FOLD_GROUPS } from "./strict_fold.ts";
import { STRICT_SSE_GROUPS } from "./strict_sse.ts";
import { STRICT_CARDS_GROUPS } from "./strict_cards.ts";

/** The whole corpus. */
export const CORPUS: readonly CaseGroup[] = [
  ...SCHEMA_GROUPS,
  ...FOLD_GROUPS,
  ...LIFECYCLE_MATRIX_GROUPS,
  ...SSE_GROUPS,
  ...NEGOTIATION_GROUPS,
  ...LEGACY_GROUPS,
  ...REPLAY_GROUPS,
  ...BLOCKS_GROUPS,
  ...CARD_ANSWER_GROUPS,
  ...STRICT_FOLD_GROUPS,
  ...STRICT_SSE_GROUPS,
  ...STRICT_CARDS_GROUPS,
];
