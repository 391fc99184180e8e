/**
 * Payload types of the `<report>` and `<ask>` tagged blocks (v0-wire spec
 * §5–6).
 *
 * @module
 */

/** Reference to a GOAL owner report (v0-wire spec §5.1). */
export interface GoalOwnerReportRefV1 {
  /** Always 1. */
  schemaVersion: 1;
  /** GOAL id: non-blank, no surrounding whitespace. */
  goalId: string;
  /** Report id: non-blank, no surrounding whitespace. */
  reportId: string;
  /** Lowercase hex SHA-256 of the report body (64 chars). */
  bodySha256: string;
}

/** One item of a report plan. */
export interface ReportItem {
  /** Stable id (trimmed, non-empty when present). */
  id?: string;
  /** Item text (trimmed; falls back to the id). */
  text: string;
  /** Free string; known tokens: todo|wip|blocked|done|dropped|passed|failing|needs-human. */
  status?: string;
  /** Opaque drill-in pointer, e.g. `escalation:<id>`. Never resolved here. */
  ref?: string;
}

/** One plan of a report. */
export interface ReportPlan {
  /** Plan slug (trimmed). */
  slug?: string;
  /** Title (trimmed, non-empty). */
  title: string;
  /** Free status string (trimmed). */
  status?: string;
  /** One-line summary (trimmed). */
  summary?: string;
  /** Items; absent when none survived normalisation. */
  items?: ReportItem[];
}

/** The `<report>` payload. */
export interface ReportBlock {
  /** Title (trimmed, non-empty). */
  title?: string;
  /** Plans (may be empty only when `goalReport` is present). */
  plans: ReportPlan[];
  /** Reference to a GOAL owner report (newest version only). */
  goalReport?: GoalOwnerReportRefV1;
}

/** One option of an `<ask>` block. */
export interface AskOption {
  /** Stable id (trimmed, non-empty when present). */
  id: string;
  /** Label shown to a person (trimmed; falls back to the id). */
  label: string;
  /** Longer description (trimmed). */
  description?: string;
}

/** The `<ask>` payload. */
export interface AskBlock {
  /** The question (trimmed, non-empty). */
  question: string;
  /** Suggested answers; absent when none survived. */
  options?: AskOption[];
  /** Opaque references (trimmed, non-empty); absent when none survived. */
  refs?: string[];
}
