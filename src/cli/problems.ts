/**
 * Grouping `inspect` problems by code, so a capture with 200 000 bad frames
 * gives one group with a count, its first lines and a few examples instead
 * of 200 000 lines.
 *
 * @module
 */
import {
  INSPECT_GROUP_EXAMPLES,
  INSPECT_GROUP_LINES,
  type InspectProblem,
  type InspectProblemGroup,
} from "./report.ts";

/**
 * Group `problems` (already in input order) by code and severity, groups in
 * order of first appearance. Each group keeps its count, its first distinct
 * lines (at most `maxLines`) and its first problems (at most `maxExamples`).
 * Linear in the number of problems.
 */
export function groupProblems(
  problems: readonly InspectProblem[],
  maxLines = INSPECT_GROUP_LINES,
  maxExamples = INSPECT_GROUP_EXAMPLES,
): InspectProblemGroup[] {
  const groups = new Map<string, InspectProblemGroup>();
  for (const p of problems) {
    const key = `${p.severity}\u0000${p.code}`;
    let g = groups.get(key);
    if (g === undefined) {
      g = {
        code: p.code,
        severity: p.severity,
        count: 0,
        firstLine: p.line,
        lines: [],
        examples: [],
      };
      groups.set(key, g);
    }
    g.count++;
    if (p.line !== null && g.lines.length < maxLines && g.lines[g.lines.length - 1] !== p.line) {
      g.lines.push(p.line);
    }
    if (g.examples.length < maxExamples) g.examples.push(p);
  }
  return [...groups.values()];
}
