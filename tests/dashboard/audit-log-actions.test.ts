/** Issue 28 item 4: the dashboard's changes reach the audit log through the same use-cases, and the log exports as CSV. */
import { afterEach, describe, expect, test } from "vitest";
import { GET as listAuditLog } from "@/app/api/audit-log/route";
import { setupTestDatabase } from "../helpers/db";
import { createMerchant, randomAddress } from "../helpers/factories";
import { call } from "../helpers/request";
import { signInAs } from "./session";

const { createApiKeyAction, revokeApiKeyAction } = await import("@/app/(dashboard)/dashboard/api-keys/actions");
const { addWalletAction } = await import("@/app/(dashboard)/dashboard/wallets/actions");
const { GET: exportAuditLog } = await import("@/app/(dashboard)/dashboard/audit-log/export/route");

setupTestDatabase();

afterEach(() => {
  signInAs(null);
});

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.append(key, value);
  return data;
}

describe("audit log from the dashboard", () => {
  test("dashboard changes are recorded as the signed-in person's, and the filtered log downloads as CSV", async () => {
    const m = await createMerchant();
    signInAs(m);
    const created = await createApiKeyAction(form({ name: "from the dashboard", preset: "read_only" }));
    if (!created.ok) throw new Error(JSON.stringify(created));
    expect(await revokeApiKeyAction(form({ id: String(created.data.id) }))).toMatchObject({ ok: true });
    const address = randomAddress();
    const wallet = await addWalletAction(form({ blockchain: "2", wallet_address: address, confirmation_threshold: "2", password: m.password }));
    expect(wallet).toMatchObject({ ok: true });

    const log = await call(listAuditLog, "GET", "/api/audit-log/", { token: m.access });
    const actions = log.body.results.map((e: { action: string }) => e.action);
    expect(actions).toEqual(["wallet.created", "api_key.revoked", "api_key.created", "auth.login_succeeded"]);
    for (const entry of log.body.results.slice(0, 3)) expect(entry.actor).toEqual({ kind: "session", name: m.username });

    const response = await exportAuditLog(new Request("http://localhost:3000/dashboard/audit-log/export?action=api_key.created"), {
      params: Promise.resolve({}),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/csv");
    const lines = (await response.text()).trim().split("\r\n");
    expect(lines[0]).toBe("id,created_at,action,actor_kind,actor,target,client_ip,before,after");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(",api_key.created,session,");
    expect(lines[1]).toContain(`api_key:${created.data.id}`);
    expect(lines[1]).not.toContain(created.data.key);
    expect(lines[1]).toContain('"{""name"":""from the dashboard""');

    const wholeLog = await exportAuditLog(new Request("http://localhost:3000/dashboard/audit-log/export"), { params: Promise.resolve({}) });
    expect((await wholeLog.text()).trim().split("\r\n")).toHaveLength(5);
  });

  test("the export needs a session and valid filters", async () => {
    const signedOut = await exportAuditLog(new Request("http://localhost:3000/dashboard/audit-log/export"), { params: Promise.resolve({}) });
    expect(signedOut.status).toBe(401);
    const m = await createMerchant();
    signInAs(m);
    const bad = await exportAuditLog(new Request("http://localhost:3000/dashboard/audit-log/export?action=nope&from=2030-13-01"), {
      params: Promise.resolve({}),
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.code).toBe("VALIDATION_ERROR");
  });
});
