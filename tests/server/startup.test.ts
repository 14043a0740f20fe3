import { beforeAll, describe, expect, test } from "vitest";
import { buildTimeoutMs, ensureBuilt, spawnServer } from "../helpers/server";

beforeAll(ensureBuilt, buildTimeoutMs);

async function exitOf(env: Record<string, string | undefined>) {
  const server = await spawnServer({ env });
  try {
    const code = await Promise.race([server.exited, new Promise((resolve) => setTimeout(() => resolve("still running"), 45_000))]);
    return { code, output: server.output() };
  } finally {
    await server.stop();
  }
}

describe("production start", () => {
  test("refuses to start without AUTH_SECRET: non-zero exit and a message naming it", async () => {
    const { code, output } = await exitOf({ AUTH_SECRET: undefined });
    expect(code).not.toBe("still running");
    expect(code).not.toBe(0);
    expect(output).toMatch(/AUTH_SECRET/);
  });

  test("refuses an AUTH_SECRET shorter than 32 characters", async () => {
    const { code, output } = await exitOf({ AUTH_SECRET: "too-short" });
    expect(code).not.toBe("still running");
    expect(code).not.toBe(0);
    expect(output).toMatch(/AUTH_SECRET/);
    expect(output).not.toContain("too-short");
  });

  test("refuses to start without GATEWAY_MODE: no silent sandbox default in production (issue 13)", async () => {
    const { code, output } = await exitOf({ GATEWAY_MODE: undefined });
    expect(code).not.toBe("still running");
    expect(code).not.toBe(0);
    expect(output).toMatch(/GATEWAY_MODE/);
  });
});
