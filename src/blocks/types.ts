/**
 * Payload types of the `<report>` and `<ask>` tagged blocks (v0-wire spec
 * §5–6).
 *
 * @module
 */

/** Reference to a GOAL owner report (v0-wire spec §5.1). */
export interface GoalOwnerReportRefV1 {
  schemaVersion: 1;
  goalId: string;
  reportId: string;
  /** Lowercase hex SHA-256 of the report body (64 chars). */
  bodySha256: string;
}

/** One item of a report plan. */
export interface ReportItem {
  id?: string;
  text: string;
  /** Free string; known tokens: todo|wip|blocked|done|dropped|passed|failing|needs-human. */
  status?: string;
  /** Opaque drill-in pointer, e.g. `escalation:<id>`. Never resolved here. */
  ref?: string;
}

/** One plan of a report. */
export interface ReportPlan {
  slug?: string;
  title: string;
  status?: string;
  summary?: string;
  items?: ReportItem[];
}

/** The `<report>` payload. */
export interface ReportBlock {
  title?: string;
  plans: ReportPlan[];
  goalReport?: GoalOwnerReportRefV1;
}

/** One option of an `<ask>` block. */
export interface AskOption {
  id: string;
  label: string;
  description?: string;
}

/** The `<ask>` payload. */
export interface AskBlock {
  question: string;
  options?: AskOption[];
  refs?: string[];
}
