/**
 * The TypeScript compilers the npm build's consumer matrix type-checks with
 * (`tscMatrix` in `_npm_build.ts`): the floor the README promises (5.5, the
 * first that reads zod 4's types) up to the one the build compiles with.
 *
 * @module
 */
import ts55 from "typescript-5.5";
import ts56 from "typescript-5.6";
import ts57 from "typescript-5.7";
import ts58 from "typescript-5.8";
import ts59 from "typescript";

/** The compiler API of each checked TypeScript version (the subset the matrix uses). */
export const TYPESCRIPTS: readonly (typeof ts59)[] = [ts55, ts56, ts57, ts58, ts59] as never;
