import { eq } from "drizzle-orm";
import { POST as createKey } from "@/app/api/api-keys/route";
import { POST as login } from "@/app/api/auth/login/route";
import { POST as register } from "@/app/api/auth/register/route";
import { GET as verify } from "@/app/api/auth/verify/route";
import { merchants } from "@/lib/db/schema";
import { createBenchDatabase, fmt, noParams, percentile, request } from "./support";

async function timeRequests(token: string, count: number): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const res = await verify(request("GET", "/api/auth/verify/", { token }), noParams);
    samples.push(performance.now() - started);
    if (res.status !== 200) throw new Error(`verify answered ${res.status}`);
  }
  return samples.sort((a, b) => a - b);
}

/** Time per authenticated request (route wrapper: auth + rate-limit count + handler) with an API key vs an access token, on PostgreSQL. */
export async function runAuthBench(): Promise<void> {
  const database = await createBenchDatabase("auth");
  try {
    const account = { username: "bench", email: "bench@example.com", password: "bench-password", shop_name: "Bench" };
    await register(request("POST", "/api/auth/register", { body: account }), noParams);
    const tokens = await (await login(request("POST", "/api/auth/login", { body: account }), noParams)).json();
    // enterprise with a high limit so the benchmark never hits 429
    await database.db.update(merchants).set({ plan: "enterprise", rateLimitPerHour: 10_000_000 }).where(eq(merchants.username, "bench"));
    const keyBody = await (
      await createKey(request("POST", "/api/api-keys/", { token: tokens.access, body: { name: "bench", preset: "full_access" } }), noParams)
    ).json();

    const count = 2000;
    await timeRequests(tokens.access, 200); // warm-up
    await timeRequests(keyBody.data.key, 200);
    const withToken = await timeRequests(tokens.access, count);
    const withKey = await timeRequests(keyBody.data.key, count);
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

    console.log("\n## Authenticated request (GET /api/auth/verify/ in-process, PostgreSQL)");
    console.log(`requests per credential: ${count}`);
    console.log(`access token: mean ${fmt(mean(withToken))} ms  p50 ${fmt(percentile(withToken, 50))} ms  p99 ${fmt(percentile(withToken, 99))} ms`);
    console.log(`API key:      mean ${fmt(mean(withKey))} ms  p50 ${fmt(percentile(withKey, 50))} ms  p99 ${fmt(percentile(withKey, 99))} ms`);
  } finally {
    await database.close();
  }
}
