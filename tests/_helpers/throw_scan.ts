/**
 * A static scan of library source for the error model's two forbidden
 * shapes (CONTRIBUTING, "Errors"):
 *
 * - `plain`: a built-in error constructed (`new TypeError(…)`,
 *   `new RangeError(…)`, `new Error(…)`, `new SyntaxError(…)`), whether it is
 *   thrown, rejected or reported. Library code throws an exported typed class.
 * - `self-caught`: a `throw` inside a `try` block of the same function, so
 *   the function catches its own control flow.
 *
 * Code inside JSDoc examples is not scanned (comments are not code).
 */
import ts from "typescript";

/** One finding: the file (relative to the repository), 1-based line, kind and source text. */
export interface ThrowFinding {
  file: string;
  line: number;
  kind: "plain" | "self-caught";
  text: string;
}

const BUILT_INS = new Set(["Error", "TypeError", "RangeError", "SyntaxError"]);

/** Scans one module's source text. */
export function scanSource(file: string, source: string): ThrowFinding[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const out: ThrowFinding[] = [];
  const at = (node: ts.Node, kind: ThrowFinding["kind"]) => {
    const { line } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
    out.push({ file, line: line + 1, kind, text: node.getText(sf).split("\n")[0].slice(0, 120) });
  };
  // `inTry`: inside a try block of the function being walked (reset at each function boundary).
  const visit = (node: ts.Node, inTry: boolean) => {
    if (
      ts.isNewExpression(node) && ts.isIdentifier(node.expression) &&
      BUILT_INS.has(node.expression.text)
    ) at(node, "plain");
    if (ts.isThrowStatement(node) && inTry) at(node, "self-caught");
    if (ts.isFunctionLike(node) || ts.isClassStaticBlockDeclaration(node)) {
      ts.forEachChild(node, (c) => visit(c, false));
      return;
    }
    if (ts.isTryStatement(node)) {
      visit(node.tryBlock, true);
      if (node.catchClause) visit(node.catchClause, inTry);
      if (node.finallyBlock) visit(node.finallyBlock, inTry);
      return;
    }
    ts.forEachChild(node, (c) => visit(c, inTry));
  };
  visit(sf, false);
  return out;
}

/** Scans every `.ts` file under `dir` (a repository-relative folder such as `src/`). */
export function scanTree(root: URL, dir: string): ThrowFinding[] {
  const out: ThrowFinding[] = [];
  const walk = (rel: string) => {
    for (const e of Deno.readDirSync(new URL(rel, root))) {
      if (e.isDirectory) walk(`${rel}${e.name}/`);
      else if (e.name.endsWith(".ts") && !e.name.endsWith("_test.ts")) {
        const path = `${rel}${e.name}`;
        out.push(...scanSource(path, Deno.readTextFileSync(new URL(path, root))));
      }
    }
  };
  walk(dir);
  return out;
}
