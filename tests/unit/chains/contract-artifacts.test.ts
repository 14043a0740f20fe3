import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CONTRACT_ARTIFACTS_PATH, compileContracts } from "@/lib/chains/compile-contracts";

describe("contract artifacts", () => {
  it("match a fresh compilation of contracts/ (run `npm run contracts:build` if this fails)", () => {
    const committed = readFileSync(path.join(process.cwd(), CONTRACT_ARTIFACTS_PATH), "utf8");
    expect(compileContracts()).toBe(committed);
  });
});
