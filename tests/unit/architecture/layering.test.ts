import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, test } from "vitest";

const root = path.resolve(__dirname, "../../..");

/**
 * The most imports that may run up a layer (scripts/layers.mjs). A ratchet: a change that removes some
 * lowers this number with it; one that adds some fails here. Lower it, never raise it.
 */
const baseline = 15;

interface UpwardImports {
  total: number;
  pairs: Array<{ from: string; to: string; count: number; imports: Array<{ file: string; imports: string }> }>;
}

const layers = (...args: string[]): unknown =>
  JSON.parse(execFileSync(process.execPath, ["scripts/layers.mjs", ...args], { cwd: root, encoding: "utf8", maxBuffer: 64 << 20 }));

describe("layers point down (scripts/layers.mjs)", () => {
  test("the script reads the same imports as TypeScript's parser, in every file it reads", () => {
    const { files } = layers("--imports") as { files: Record<string, string[]> };
    expect(Object.keys(files).length).toBeGreaterThan(300);
    const differences = Object.entries(files).flatMap(([file, found]) => {
      const parsed = ts.preProcessFile(readFileSync(path.join(root, file), "utf8"), true, true).importedFiles.map((f) => f.fileName);
      const [ours, theirs] = [found, parsed].map((list) => [...new Set(list)].sort().join(", "));
      return ours === theirs ? [] : [`${file}: read ${ours || "none"}; TypeScript reads ${theirs || "none"}`];
    });
    expect(differences).toEqual([]);
  });

  test("components import nothing from app/: the pages pass server actions in as props", () => {
    const { pairs } = layers("--json") as UpwardImports;
    expect(pairs.filter((p) => p.from.startsWith("components") && p.to === "app").flatMap((p) => p.imports)).toEqual([]);
  });

  test("the chain layer talks to chains only: lib/chains imports nothing from orders, refunds, transactions, webhooks or the dashboard", () => {
    const { files } = layers("--imports") as { files: Record<string, string[]> };
    const forbidden = ["lib/orders", "lib/refunds", "lib/transactions", "lib/webhooks", "lib/dashboard"];
    const chainFiles = Object.keys(files).filter((file) => file.startsWith("lib/chains/"));
    expect(chainFiles.length).toBeGreaterThan(20);
    const reaching = chainFiles.flatMap((file) =>
      files[file]!.map((specifier) => ({
        file,
        target: specifier.startsWith("@/") ? specifier.slice(2) : specifier.startsWith(".") ? path.posix.join(path.posix.dirname(file), specifier) : specifier,
      }))
        .filter(({ target }) => forbidden.some((folder) => target === folder || target.startsWith(`${folder}/`)))
        .map(({ file, target }) => `${file} → ${target}`),
    );
    expect(reaching, "the engine (lib/engine) attributes what the scanner recorded; the chain layer only reads and records chains").toEqual([]);
  });

  test(`at most ${baseline} imports run up a layer`, () => {
    const { total, pairs } = layers("--json") as UpwardImports;
    const list = pairs.map((p) => `${p.from} → ${p.to} ${p.count}: ${p.imports.map((i) => `${i.file} → ${i.imports}`).join("; ")}`).join("\n");
    expect(
      total,
      `${total} imports run up a layer (baseline ${baseline}); see them with \`node scripts/layers.mjs\`. Point the new ones down (a helper two domains need lives below both), or place a new folder in the script's table:\n${list}`,
    ).toBeLessThanOrEqual(baseline);
  });
});
