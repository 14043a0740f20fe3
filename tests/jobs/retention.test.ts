import { sql } from "drizzle-orm";
import postgres from "postgres";
import { describe, expect, test } from "vitest";
import { taskNames } from "@/lib/jobs/kick";
import { registeredTasks } from "@/lib/engine/registry";
import { rowsOf } from "@/lib/db/map-row";
import { runRetention } from "@/lib/retention/retention";
import { backend, setupTestDatabase } from "../helpers/db";
import { createMerchant, type TestMerchant } from "../helpers/factories";

/** Retention (issue 31): what is only needed for a while goes, in bounded batches, and nothing else. */
const testDb = setupTestDatabase();
const hour = 3_600_000;
const day = 24 * hour;

async function count(query: ReturnType<typeof sql>): Promise<number> {
  const [row] = rowsOf(await testDb.db.execute(query));
  return Number(row!.n);
}

/** `n` idempotency answers, sessions and deliveries of each age the rules tell apart, for one merchant. */
async function seed(merchant: TestMerchant, now: Date, n: number) {
  const at = (offsetMs: number) => new Date(now.getTime() + offsetMs).toISOString();
  const { db } = testDb;
  await db.execute(sql`
    insert into idempotency_keys (merchant_id, key, request_hash, lock_token, request_id, status, response_body, created_at, expires_at)
    select ${merchant.id}, kind || g, 'h', 'l', 'r', 201, '{}', ${at(-2 * day)}::timestamptz, case kind when 'old' then ${at(-hour)}::timestamptz else ${at(hour)}::timestamptz end
    from generate_series(1, ${n}) g, (values ('old'), ('live')) k(kind)`);
  await db.execute(sql`
    insert into refresh_tokens (merchant_id, family_id, token_hash, expires_at, created_at)
    select ${merchant.id}, 'f' || g, kind || ${merchant.id} || '-' || g, case kind when 'old' then ${at(-hour)}::timestamptz else ${at(day)}::timestamptz end, ${at(-30 * day)}::timestamptz
    from generate_series(1, ${n}) g, (values ('old'), ('live')) k(kind)`);
  const [endpoint] = rowsOf(
    await db.execute(sql`
      insert into webhook_endpoints (merchant_id, url, events, secret, created_at, updated_at)
      values (${merchant.id}, 'https://shop.example.com/hooks', '{}', 'whsec_test', now(), now()) returning id`),
  );
  // Delivered 40 days ago (past the 30-day period), delivered 26 hours ago, and failed or pending 40 days ago (kept: not delivered).
  await db.execute(sql`
    insert into webhook_deliveries (message_id, merchant_id, endpoint_id, event_type, url, body, status, attempts, completed_at, created_at, updated_at)
    select 'msg_' || ${merchant.id} || kind || g, ${merchant.id}, ${Number(endpoint!.id)}, 'payment.confirmed', 'https://shop.example.com/hooks', '{"big":"payload"}',
      case kind when 'failed' then 'failed' when 'pending' then 'pending' else 'succeeded' end, 1,
      case kind when 'recent' then ${at(-day - 2 * hour)}::timestamptz when 'pending' then null else ${at(-40 * day)}::timestamptz end,
      ${at(-41 * day)}::timestamptz, ${at(-40 * day)}::timestamptz
    from generate_series(1, ${n}) g, (values ('old'), ('recent'), ('failed'), ('pending')) k(kind)`);
  await db.execute(sql`
    insert into webhook_attempts (delivery_id, attempted_at, status_code, duration_ms, request_headers)
    select d.id, d.created_at, 200, 5, '{}'::jsonb from webhook_deliveries d where d.merchant_id = ${merchant.id}`);
}

describe("retention", () => {
  test("deletes expired idempotency answers, expired sessions and deliveries delivered before the period (with their attempts), batch by batch; keeps the rest", async () => {
    const merchant = await createMerchant();
    const now = new Date();
    await seed(merchant, now, 7);
    const outcome = await runRetention(testDb.db, { now, batchSize: 3, deliveredWebhookDays: 30 });
    expect(outcome).toMatchObject({ idempotencyKeys: 7, sessions: 7, deliveredWebhooks: 7 });
    // 7 rows in batches of 3: 3 + 3 + 1 for each of the three kinds.
    expect(outcome.batches).toBe(9);

    const m = merchant.id;
    expect(await count(sql`select count(*) as n from idempotency_keys where merchant_id = ${m} and key like 'old%'`)).toBe(0);
    expect(await count(sql`select count(*) as n from idempotency_keys where merchant_id = ${m} and key like 'live%'`)).toBe(7);
    expect(await count(sql`select count(*) as n from refresh_tokens where merchant_id = ${m} and expires_at < ${now.toISOString()}::timestamptz`)).toBe(0);
    // createMerchant's own sign-in session is live: it stays with the 7 live ones.
    expect(await count(sql`select count(*) as n from refresh_tokens where merchant_id = ${m} and token_hash like 'live%'`)).toBe(7);
    const left = rowsOf(await testDb.db.execute(sql`select message_id from webhook_deliveries where merchant_id = ${m}`)).map((r) => String(r.message_id));
    expect(left.filter((id) => id.includes("old"))).toEqual([]);
    for (const kind of ["recent", "failed", "pending"]) expect(left.filter((id) => id.includes(kind))).toHaveLength(7);
    expect(await count(sql`select count(*) as n from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id where d.merchant_id = ${m}`)).toBe(
      21,
    );
    expect(
      await count(sql`select count(*) as n from webhook_attempts a where not exists (select 1 from webhook_deliveries d where d.id = a.delivery_id)`),
    ).toBe(0);

    // Nothing left to do: one short batch per kind.
    expect(await runRetention(testDb.db, { now, batchSize: 3, deliveredWebhookDays: 30 })).toEqual({
      idempotencyKeys: 0,
      sessions: 0,
      deliveredWebhooks: 0,
      batches: 3,
    });
  });

  test("the retention period is the setting: deliveries delivered 26 hours ago go with a 1-day period", async () => {
    const merchant = await createMerchant();
    const now = new Date();
    await seed(merchant, now, 2);
    const outcome = await runRetention(testDb.db, { now, deliveredWebhookDays: 1 });
    expect(outcome.deliveredWebhooks).toBeGreaterThanOrEqual(4);
    const left = rowsOf(await testDb.db.execute(sql`select status from webhook_deliveries where merchant_id = ${merchant.id}`)).map((r) => String(r.status));
    expect(left.sort()).toEqual(["failed", "failed", "pending", "pending"]);
  });

  test("an aborted run stops between batches", async () => {
    const merchant = await createMerchant();
    await seed(merchant, new Date(), 4);
    const controller = new AbortController();
    controller.abort();
    expect(await runRetention(testDb.db, { batchSize: 2, signal: controller.signal })).toEqual({
      idempotencyKeys: 0,
      sessions: 0,
      deliveredWebhooks: 0,
      batches: 0,
    });
  });

  test("is a task of the job driver", () => {
    expect(registeredTasks().map((task) => task.name)).toContain(taskNames.retention);
  });

  test.runIf(backend === "postgres")("a row another session holds is skipped, not waited for; the next run takes it", async () => {
    const merchant = await createMerchant();
    const now = new Date();
    await seed(merchant, now, 3);
    const [name] = rowsOf(await testDb.db.execute(sql`select current_database() as name`));
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${String(name!.name)}`;
    const holder = postgres(url.toString(), { max: 1, onnotice: () => {} });
    try {
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      const holding = holder.begin(async (tx) => {
        await tx`select 1 from idempotency_keys where merchant_id = ${merchant.id} and key = 'old1' for update`;
        locked();
        await released;
      });
      await isLocked;
      const oldKeys = () => count(sql`select count(*) as n from idempotency_keys where merchant_id = ${merchant.id} and key like 'old%'`);
      await runRetention(testDb.db, { now, deliveredWebhookDays: 30 });
      expect(await oldKeys()).toBe(1);
      release();
      await holding;
      await runRetention(testDb.db, { now, deliveredWebhookDays: 30 });
      expect(await oldKeys()).toBe(0);
    } finally {
      await holder.end();
    }
  });
});
