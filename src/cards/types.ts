/**
 * Card types on the wire (v0-wire spec §4.1): interactive questions asked
 * mid-turn, answered out of band and correlated by `correlationId`.
 *
 * @module
 */
import type { ReportBlock } from "../blocks/types.ts";

/**
 * How a card asks for its answer. `select` is single-choice rendered compact
 * (a dropdown) and is answered like `radio`.
 */
export type CardPresentationKind = "radio" | "checkbox" | "text" | "date" | "slider" | "select";

/** One choice of a radio, checkbox or select card. */
export interface CardOption {
  /** Stable id returned in the answer (`optionId` / `optionIds`). */
  id: string;
  /** Label shown to a person. */
  label: string;
  /** Longer description. */
  description?: string;
  /** Short hint (papercusp field). */
  hint?: string;
  /** Visual emphasis. */
  style?: "default" | "primary" | "danger";
}

/**
 * Flat presentation: every field but `kind` optional. `min`/`max` are numbers
 * for `slider` and ISO `YYYY-MM-DD` strings for `date`.
 *
 * @typeParam K the presentation kinds accepted; products widen it with their
 * own kinds (see the cards module's extension point).
 */
export interface CardPresentation<K extends string = CardPresentationKind> {
  /** How the card asks (a built-in or product kind). */
  kind: K;
  /** Choices of a radio, checkbox or select card (ids unique). */
  options?: CardOption[];
  /** Placeholder of a text card. */
  placeholder?: string;
  /** Whether a text card takes several lines. */
  multiline?: boolean;
  /** Lower bound: a number for slider, an ISO `YYYY-MM-DD` string for date. */
  min?: number | string;
  /** Upper bound: a number for slider, an ISO `YYYY-MM-DD` string for date. */
  max?: number | string;
  /** Slider step (> 0), counted from `min` (or 0). */
  step?: number;
  /** Radio: may be answered by voice. */
  voiceAnswerable?: boolean;
}

/** An approval card's change description (row title, question, body lines). */
export interface CardApproval {
  /** Row title, e.g. `Update(calc.js)`. */
  title: string;
  /** The approval question. */
  question: string;
  /** The change, shown once. */
  body: string[];
}

/** What a card asks. */
export interface CardSpec<K extends string = CardPresentationKind> {
  /** What the card asks, as text (also carries an approval question). */
  prompt: string;
  /** Absent: a plain prompt / confirm card. */
  presentation?: CardPresentation<K>;
  /** Voice / no-UI rendering. */
  fallbackText?: string;
  /** Shown only behind a details toggle. */
  details?: string;
  /** Approval details (newest version only); the card is then a confirm card. */
  approval?: CardApproval;
  /** Whether a decline answer is allowed (absent: see `CardValidationOptions.allowDeclineDefault`). */
  allowDecline?: boolean;
  /** Server resolves the card as `cancel` after this many milliseconds. */
  timeoutMs?: number;
  /** Structured body between prompt and options. */
  report?: ReportBlock;
}

/** A card as it is open on the wire. */
export interface OpenCardSnapshot<K extends string = CardPresentationKind> extends CardSpec<K> {
  /** Correlates answers with this card (tooldef: a v4 UUID). */
  correlationId: string;
  /** Epoch milliseconds. */
  createdAt: number;
  /** JSON Schema of the answer's `value`. */
  dataSchemaJson?: Record<string, unknown>;
}

/** An answer to a card, POSTed out of band. */
export type CardResponse =
  | { action: "submit"; correlationId: string; value: Record<string, unknown> }
  | { action: "decline"; correlationId: string }
  | { action: "cancel"; correlationId: string };
