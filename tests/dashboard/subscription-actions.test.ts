import { describe, expect, test } from "vitest";
import { setupTestDatabase } from "../helpers/db";
import { createMerchant, createWallet, randomAddress } from "../helpers/factories";
import { parseCsv } from "../helpers/csv";
import { signInAs } from "./session";

const { createPlanAction, createSubscriptionAction, pauseSubscriptionAction, resumeSubscriptionAction, cancelSubscriptionAction } =
  await import("@/app/(dashboard)/dashboard/subscriptions/actions");
const { GET: exportSubscriptions } = await import("@/app/(dashboard)/dashboard/subscriptions/export/route");
const { GET: getSubscription } = await import("@/app/api/subscriptions/[id]/route");
const { call } = await import("../helpers/request");

setupTestDatabase();

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.append(key, value);
  return data;
}

async function download(query: Record<string, string> = {}) {
  const url = new URL("http://localhost:3000/dashboard/subscriptions/export");
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  const response = await exportSubscriptions(new Request(url), undefined);
  return { status: response.status, text: await response.text() };
}

describe("dashboard subscriptions", () => {
  test("the forms create a plan and a subscription; pause, resume and cancel go through the API's use-cases; the CSV lists them by status", async () => {
    const merchant = await createMerchant();
    await createWallet(merchant);
    signInAs(merchant);
    const planForm = {
      name: "Tea club",
      token: "base:USDC",
      amount: "7.25",
      interval_days: "30",
      trial_days: "",
      periods: "",
      grace_days: "3",
      past_due_days: "7",
    };
    const plan = await createPlanAction(form(planForm));
    expect(plan).toMatchObject({ ok: true, data: { id: expect.stringMatching(/^PLN-/), name: "Tea club" } });
    const bad = await createPlanAction(form({ ...planForm, grace_days: "30" }));
    expect(bad).toMatchObject({ ok: false, error: { details: { grace_days: [expect.any(String)] } } });

    const planId = (plan as { data: { id: string } }).data.id;
    const created = await createSubscriptionAction(form({ plan: planId, customer_address: randomAddress(), customer_email: "" }));
    expect(created).toMatchObject({ ok: true, data: { id: expect.stringMatching(/^SUB-/), subscribe_path: expect.stringMatching(/^\/subscribe\/SUB-/) } });
    const id = (created as { data: { id: string } }).data.id;
    const other = await createSubscriptionAction(form({ plan: planId, customer_address: randomAddress() }));
    const otherId = (other as { data: { id: string } }).data.id;

    expect(await pauseSubscriptionAction(form({ id }))).toMatchObject({ ok: true, data: { status: "paused" } });
    expect(await pauseSubscriptionAction(form({ id }))).toMatchObject({ ok: false, error: { code: "CONFLICT" } });
    expect(await resumeSubscriptionAction(form({ id }))).toMatchObject({ ok: true, data: { status: "active" } });
    expect(await cancelSubscriptionAction(form({ id, reason: "moved away" }))).toMatchObject({ ok: true, data: { status: "canceled" } });
    const view = (await call(getSubscription, "GET", `/api/subscriptions/${id}/`, { token: merchant.access, params: { id } })).body.data;
    expect(view.history.map((e: { kind: string }) => e.kind)).toEqual(["created", "paused", "resumed", "canceled"]);
    expect(view.history.at(-1).detail).toEqual({ reason: "moved away" });

    const all = await download();
    expect(all.status).toBe(200);
    const rows = parseCsv(all.text);
    expect(rows[0]).toContain("subscription_id");
    expect(
      rows
        .slice(1)
        .map((r) => r[0])
        .sort(),
    ).toEqual([id, otherId].sort());
    const canceled = parseCsv((await download({ status: "canceled" })).text);
    expect(canceled.slice(1).map((r) => [r[0], r[2]])).toEqual([[id, "canceled"]]);
    expect((await download({ status: "bogus" })).status).toBe(400);

    // Another store's owner sees none of it, and a viewer of this one changes nothing.
    const stranger = await createMerchant();
    signInAs(stranger);
    expect(parseCsv((await download()).text)).toHaveLength(1);
    expect(await cancelSubscriptionAction(form({ id: otherId }))).toMatchObject({ ok: false, error: { code: "NOT_FOUND" } });
    signInAs(stranger, { accountId: merchant.id, role: "viewer" });
    expect(await cancelSubscriptionAction(form({ id: otherId }))).toMatchObject({ ok: false });
    signInAs(null);
    expect((await download()).status).toBe(401);
  });
});
