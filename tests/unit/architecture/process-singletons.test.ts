import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { processSingleton, processSingletonKeys, processSingletonProperty, processSlot, type ProcessSingletonKey } from "@/lib/process-singleton";

const root = path.resolve(__dirname, "../../..");

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return /\.tsx?$/.test(name) && !name.endsWith(".d.ts") ? [full] : [];
  });
}

const files = ["lib", "app", "components"]
  .flatMap((dir) => sources(path.join(root, dir)))
  .map((file) => ({ file: path.relative(root, file), text: readFileSync(file, "utf8") }));
const helper = "lib/process-singleton.ts";

describe("process-wide values (lib/process-singleton.ts)", () => {
  test("only the helper keeps values on globalThis", () => {
    expect(
      files.filter(({ file, text }) => file !== helper && /globalThis\s+as\b|globalThis\.__gateway|globalThis\[/.test(text)).map(({ file }) => file),
    ).toEqual([]);
  });

  test("each key is used by one module, and every listed key is used", () => {
    const users = new Map<string, string[]>();
    for (const { file, text } of files) {
      if (file === helper) continue;
      for (const [, key] of text.matchAll(/process(?:Singleton|Slot)(?:<.*?>)?\(\s*"([A-Za-z]+)"/g))
        users.set(key!, [...new Set([...(users.get(key!) ?? []), file])]);
    }
    expect([...users.keys()].sort()).toEqual(Object.keys(processSingletonKeys).sort());
    expect([...users].filter(([, modules]) => modules.length > 1)).toEqual([]);
  });

  test("a value is made once and found by every caller under its __gateway property", () => {
    const key = "announcedHeads" satisfies ProcessSingletonKey;
    const property = processSingletonProperty(key);
    expect(property).toBe("__gatewayAnnouncedHeads");
    const first = processSingleton(key, () => new Map<number, bigint>());
    // What a second copy of the module (Next loads some twice) gets: the same map, its own `create` unused.
    expect(processSingleton(key, () => new Map<number, bigint>([[1, 1n]]))).toBe(first);
    expect((globalThis as Record<string, unknown>)[property]).toBe(first);
  });

  test("a slot is set and cleared, and reads back what was set", () => {
    const clock = processSlot<{ now(): number }>("taskClock");
    const other = processSlot<{ now(): number }>("taskClock");
    const fixed = { now: () => 42 };
    expect(clock.set(fixed)).toBe(fixed);
    expect(other.get()).toBe(fixed);
    expect(clock.set(undefined)).toBeUndefined();
    expect(other.get()).toBeUndefined();
  });

  test("the keys the test helpers clear before each file keep their names", () => {
    // tests/helpers/setup.ts empties every `__gateway…` map and set: each key is found by that prefix.
    for (const key of Object.keys(processSingletonKeys) as ProcessSingletonKey[]) expect(processSingletonProperty(key)).toMatch(/^__gateway[A-Z]/);
  });
});
