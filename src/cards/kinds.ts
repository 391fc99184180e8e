/**
 * The built-in card presentation kinds (v0-wire spec §4.1), in one place for
 * the schemas and the validator.
 *
 * @module
 */
import type { CardPresentationKind } from "./types.ts";

/** The built-in kinds as a tuple (for `z.enum`); not in the `./cards` entry point. */
export const BUILTIN_KINDS = [
  "radio",
  "checkbox",
  "text",
  "date",
  "slider",
  "select",
] as const satisfies readonly CardPresentationKind[];

/** The six built-in kinds: radio, checkbox, text, date, slider, select. */
export const CARD_PRESENTATION_KINDS: readonly CardPresentationKind[] = BUILTIN_KINDS;
