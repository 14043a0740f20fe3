import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { printProfileSummary, summarizeProfile } from "./cpu-profile-summary";
import { call, databaseCpuSeconds, createBenchDatabase, ensureProductionBuild, serverEnv, startNextServer } from "./support";
import { treeCpuSeconds } from "./process-cpu";

/**
 * `npm run bench -- profile`: where `next start` spends its CPU per request. Each target gets a
 * fresh server started with `node --cpu-prof` (BENCH_CPU_PROF), closed-loop load from a separate
 * process, then the profile is summed per origin and per function, with the CPU per request.
 * PROFILE_TARGETS=floor,get,post,… picks targets; PROFILE_SECONDS the load's length.
 */
const seconds = Number(process.env.PROFILE_SECONDS ?? 15);
const connections = 32;

function load(spec: Record<string, unknown>): Promise<{ requestsPerSecond: number; total: number; non2xx: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "--conditions=react-server", "bench/load.ts", JSON.stringify(spec)], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.on("exit", (code) => (code === 0 ? resolve(JSON.parse(out.trim().split("\n").pop()!)) : reject(new Error(`load generator exited ${code}`))));
  });
}

export async function runProfileBench(): Promise<void> {
  await ensureProductionBuild();
  const database = await createBenchDatabase("profile");
  const dir = mkdtempSync(path.join(tmpdir(), "gw-bench-prof-"));
  try {
    let server = await startNextServer({ ...serverEnv, DATABASE_URL: database.url });
    const account = { username: "profbench", email: "prof@example.com", password: "bench-password", shop_name: "Bench" };
    await call(`${server.url}/api/auth/register`, "POST", account);
    const { access } = await call<{ access: string }>(`${server.url}/api/auth/login`, "POST", account);
    await call(
      `${server.url}/api/merchant-wallets/`,
      "POST",
      { blockchain: 2, wallet_address: "0x000000000000000000000000000000000000bEEF", confirmation_threshold: 1 },
      access,
    );
    const key = (await call<{ data: { key: string } }>(`${server.url}/api/api-keys/`, "POST", { name: "bench", preset: "full_access" }, access)).data.key;
    const order = (
      await call<{ data: { order_id: string } }>(
        `${server.url}/api/payment-orders/`,
        "POST",
        { amount: "1", currency: "USDC", blockchain: "base", order_info: "{}", nonce: 1 },
        key,
      )
    ).data.order_id;
    await server.stop();
    const auth = { authorization: `Bearer ${key}` };
    const targets: Record<string, { path: string; method: "GET" | "POST"; headers: Record<string, string> }> = {
      floor: { path: "/api/nope", method: "GET", headers: {} },
      get: { path: "/api/blockchains/", method: "GET", headers: auth },
      post: { path: "/api/payment-orders/", method: "POST", headers: auth },
      getOrder: { path: `/api/payment-orders/${order}/`, method: "GET", headers: auth },
      payStatus: { path: `/api/pay/${order}/`, method: "GET", headers: {} },
    };
    const wanted = (process.env.PROFILE_TARGETS ?? "floor,get,post").split(",");
    let nonce = 1_000;
    for (const name of wanted) {
      const target = targets[name];
      if (!target) throw new Error(`unknown profile target ${name}`);
      const profileDir = path.join(dir, name);
      process.env.BENCH_CPU_PROF = profileDir;
      const spawned = performance.now();
      server = await startNextServer({ ...serverEnv, DATABASE_URL: database.url });
      delete process.env.BENCH_CPU_PROF;
      const spec = { url: `${server.url}${target.path}`, method: target.method, headers: target.headers, connections };
      await load({ ...spec, firstNonce: nonce, durationSeconds: 3 }); // warm-up (JIT, prepared statements, caches): left out of the summary
      const measuredFrom = performance.now();
      const cpuBefore = { server: treeCpuSeconds(server.pid), database: await databaseCpuSeconds(database) };
      const figures = await load({ ...spec, firstNonce: nonce + 5_000_000, durationSeconds: seconds });
      const cpu = { server: treeCpuSeconds(server.pid) - cpuBefore.server, database: (await databaseCpuSeconds(database)) - cpuBefore.database };
      nonce += 10_000_000;
      await server.stop();
      const [file] = readdirSync(profileDir).filter((f) => f.endsWith(".cpuprofile"));
      // The profile starts with the process, a little after the spawn: skip up to the measured load
      // (the load generator's own start-up, ~0.3 s, is idle time in the server and costs nothing).
      const skipUs = (measuredFrom - spawned) * 1000;
      const summary = summarizeProfile(
        path.join(profileDir, file!),
        [
          /^withApi|^route .*\.next/,
          /readJsonObject|readCappedText/,
          / .*node_modules\/postgres\//,
          / .*node_modules\/drizzle-orm\//,
          / .*node_modules\/zod\//,
          / .*node_modules\/viem\/|keccak|computeDepositAddress/,
          /randomUUID/,
        ],
        skipUs,
      );
      const perRequest = (s: number) => ((1000 * s) / Math.max(1, figures.total)).toFixed(2);
      printProfileSummary(
        `${target.method} ${target.path} (profiled): ${figures.requestsPerSecond.toFixed(0)} req/s, ${figures.total} requests (${figures.non2xx} non-2xx); CPU per request: next-server ${perRequest(cpu.server)} ms (profiler's overhead included), PostgreSQL backends ${perRequest(cpu.database)} ms; profile from ${Math.round(skipUs)} µs`,
        summary,
      );
    }
  } finally {
    await database.close();
    if (!process.env.PROFILE_KEEP) rmSync(dir, { recursive: true, force: true });
    else console.log(`profiles kept in ${dir}`);
  }
}
