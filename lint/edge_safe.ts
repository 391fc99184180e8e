/**
 * Deno lint plugin: keeps library code browser- and edge-safe.
 *
 * Library files (the top-level entry point files that deno.json `exports`
 * names, and everything under `src/` except `src/cli/` and `*_test.ts`) may
 * not use the `Deno` global or import `node:` builtins. Scripts, tests,
 * benches and the CLI may. `tests/surface/exports_test.ts` checks that every
 * entry point in deno.json counts as a library file here.
 *
 * @module
 */

/** The top-level entry point files (deno.json `exports`). */
const ENTRY_FILE =
  /\/(mod|v0|sse|legacy|cards|blocks|message|ai_sdk|ag_ui|http|schemas|recovery|recovery_testing|interactions|interactions_testing|agents)\.ts$/;

/** Whether the lint rules below apply to `filename` (an absolute path). */
export function isLibraryFile(filename: string): boolean {
  const f = filename.replaceAll("\\", "/");
  if (/_test\.ts$/.test(f)) return false;
  if (/\/(tests|bench|scripts|lint|fixtures|npm)\//.test(f)) return false;
  if (/\/src\/cli\//.test(f)) return false;
  if (/\/src\//.test(f)) return true;
  return ENTRY_FILE.test(f);
}

const plugin: Deno.lint.Plugin = {
  name: "edge-safe",
  rules: {
    "no-deno-global": {
      create(context) {
        if (!isLibraryFile(context.filename)) return {};
        return {
          Identifier(node) {
            if (node.name !== "Deno") return;
            const parent = node.parent;
            // Allow `Deno` only as a property name (e.g. `x.Deno`).
            if (parent?.type === "MemberExpression" && parent.property === node) return;
            context.report({
              node,
              message: "library code must not use the Deno global (edge/browser safety)",
            });
          },
        };
      },
    },
    "no-node-builtins": {
      create(context) {
        if (!isLibraryFile(context.filename)) return {};
        const check = (node: Deno.lint.Node, source: string) => {
          if (source.startsWith("node:")) {
            context.report({
              node,
              message: `library code must not import '${source}' (edge/browser safety)`,
            });
          }
        };
        return {
          ImportDeclaration(node) {
            check(node, node.source.value);
          },
          ExportAllDeclaration(node) {
            check(node, node.source.value);
          },
          ExportNamedDeclaration(node) {
            if (node.source) check(node, node.source.value);
          },
          ImportExpression(node) {
            if (node.source.type === "Literal" && typeof node.source.value === "string") {
              check(node, node.source.value);
            }
          },
        };
      },
    },
  },
};

export default plugin;
