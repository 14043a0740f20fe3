import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, test } from "vitest";

const root = path.resolve(__dirname, "../../..");
const libDir = path.join(root, "lib");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(name) && !name.endsWith(".d.ts") ? [full] : [];
  });
}

/** The lib/ file an import specifier names, or null for packages and files outside lib/. */
function resolveInLib(from: string, specifier: string): string | null {
  const base = specifier.startsWith("@/")
    ? path.join(root, specifier.slice(2))
    : specifier.startsWith(".")
      ? path.resolve(path.dirname(from), specifier)
      : null;
  if (!base || !base.startsWith(libDir + path.sep)) return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts"), path.join(base, "index.tsx")]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  throw new Error(`${path.relative(root, from)} imports ${specifier}, which does not resolve`);
}

/**
 * The modules each lib/ file loads at run time: static imports and re-exports, and dynamic
 * `import()` too (a lazy import still closes a cycle once both ends have run). Type-only imports
 * are left out: they are erased before anything runs.
 */
function runtimeSpecifiers(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const specifiers: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly =
        clause?.isTypeOnly ||
        (clause?.namedBindings &&
          ts.isNamedImports(clause.namedBindings) &&
          !clause.name &&
          clause.namedBindings.elements.length > 0 &&
          clause.namedBindings.elements.every((e) => e.isTypeOnly));
      if (!typeOnly) specifiers.push(node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      if (!node.isTypeOnly) specifiers.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      specifiers.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specifiers;
}

function runtimeImports(file: string): string[] {
  return runtimeSpecifiers(file)
    .map((specifier) => resolveInLib(file, specifier))
    .filter((target): target is string => target !== null);
}

const files = sourceFiles(libDir);
const graph = new Map(files.map((file) => [file, runtimeImports(file)]));
const name = (file: string) => path.relative(root, file).replace(/\.tsx?$/, "");

/** Every cycle, each reported once as the path from its first-visited module back to it. */
function findCycles(): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === "open") cycles.push([...stack.slice(stack.indexOf(next)), next].map(name));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, "done");
  };
  for (const file of files) if (!state.has(file)) visit(file);
  return cycles;
}

describe("lib/ module graph", () => {
  test("the walk sees the imports (a sanity check on the parser)", () => {
    expect(graph.get(path.join(libDir, "orders/lifecycle.ts"))?.map(name)).toContain("lib/orders/serialize");
    expect(files.length).toBeGreaterThan(100);
  });

  test("has no import cycle", () => {
    expect(findCycles()).toEqual([]);
  });

  test("nothing outside lib/jobs reaches a job driver, even indirectly, but the engine's wiring: domain code only kicks (lib/jobs/kick)", () => {
    // The engine hands its tasks to the drivers (lib/engine/start.ts, lib/engine/inngest/); the server starts them.
    const wiring = (file: string) => name(file) === "lib/server-start" || name(file) === "lib/engine/start" || name(file).startsWith("lib/engine/inngest/");
    const isDriver = (file: string) => /^lib\/jobs\/(start|registry|local\/|inngest\/)/.test(name(file));
    const reachable = (from: string) => {
      const seen = new Set<string>();
      const queue = [from];
      while (queue.length) {
        for (const next of graph.get(queue.pop()!) ?? []) {
          if (seen.has(next)) continue;
          seen.add(next);
          queue.push(next);
        }
      }
      return seen;
    };
    const offenders = files
      .filter((file) => !name(file).startsWith("lib/jobs/") && !wiring(file))
      .flatMap((file) => [...reachable(file)].filter(isDriver).map((driver) => `${name(file)} → ${name(driver)}`));
    expect(offenders).toEqual([]);
  });

  test("SQL is written only in the domains' query modules and lib/db (no drizzle-orm import anywhere else)", () => {
    const offenders = files
      // A domain's query module is `queries`, `<part>-queries` where a domain keeps several, or a file of its `queries/` folder.
      .filter((file) => !/\/([a-z-]+-)?queries$/.test(name(file)) && !/\/queries\/[a-z-]+$/.test(name(file)) && !name(file).startsWith("lib/db/"))
      .filter((file) => runtimeSpecifiers(file).includes("drizzle-orm"))
      .map(name);
    expect(offenders).toEqual([]);
  });
});
