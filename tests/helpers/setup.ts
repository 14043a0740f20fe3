// Runs before every test file (vitest.config.ts setupFiles), as instrumentation.ts does at server start.
import { readFileSync } from "node:fs";
import { afterAll, expect, vi } from "vitest";
import { setPasswordHashCostForTests } from "@/lib/auth/passwords";
import { configureZodMessages } from "@/lib/http/zod-messages";
import { processSlot } from "@/lib/process-singleton";
import { session, sessionModuleMock } from "../dashboard/session";
import { recordPhase } from "./profile";

configureZodMessages();

// Passwords are hashed with argon2id at its lowest cost (about 45 ms of CPU less per hash and per check):
// the suite signs up and signs in thousands of times. tests/api/auth/register.test.ts checks the production cost.
setPasswordHashCostForTests({ memoryCost: 1024, timeCost: 1 });

// The dashboard's session (next-auth reads it from a live request's cookie) comes from the test:
// one module double for every file, so that files reaching a dashboard action need no module mock
// of their own, and with it no process of their own (vitest.config.ts). Signed out at each file's start.
vi.mock("@/lib/auth/next-auth", () => sessionModuleMock);
// next-auth's entry imports next/server in a way vitest cannot resolve (no file can load it): the modules
// that import it directly take its error classes, which are @auth/core's.
vi.mock("next-auth", () => import("@auth/core/errors"));
session.current = null;

// Most files share a worker process with the files before them (vitest.config.ts): start each from
// what a fresh process has — no credentials, chain clients, heads or task states remembered from a
// previous file's database and devnet (the gateway keeps them in `globalThis.__gateway…` maps:
// lib/process-singleton.ts), no test clock or grace, and real timers.
for (const [key, value] of Object.entries(globalThis)) {
  if (key.startsWith("__gateway") && (value instanceof Map || value instanceof Set)) value.clear();
}
processSlot("taskClock").set(undefined);
processSlot("taskGraceMs").set(undefined);
vi.useRealTimers();

// Which file the phases recorded by tests/helpers/profile.ts belong to.
(globalThis as { __testProfileFile?: string }).__testProfileFile = expect.getState().testPath;

// `npm run test:profile`: the CPU this file used, in this worker and in the child processes it waited for
// (`next start`, CLIs: a worker runs one file at a time). Linux's /proc: cutime and cstime, in clock ticks of 10 ms.
if (process.env.TEST_PROFILE_DIR) {
  const exitedChildrenMs = () => {
    if (process.platform !== "linux") return 0;
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[13]) + Number(fields[14])) * 10;
  };
  const workerStart = process.cpuUsage();
  const childrenStart = exitedChildrenMs();
  afterAll(() => {
    const worker = process.cpuUsage(workerStart);
    recordPhase("CPU: test worker", (worker.user + worker.system) / 1000);
    recordPhase("CPU: child processes that exited", exitedChildrenMs() - childrenStart);
  });
}
