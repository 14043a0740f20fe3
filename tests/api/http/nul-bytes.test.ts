/** NUL bytes in a body, a path or a sandbox capture: a 4xx or a recorded capture, never a 500, never a database error. */
import { describe, expect, test } from "vitest";
import { POST as login } from "@/app/api/auth/login/route";
import { POST as register } from "@/app/api/auth/register/route";
import { GET as payStatus } from "@/app/api/pay/[orderId]/route";
import * as capture from "@/app/api/sandbox/inbox/[token]/route";
import { GET as listInbox } from "@/app/api/sandbox/inbox/route";
import { setupTestDatabase } from "../../helpers/db";
import { createMerchant } from "../../helpers/factories";
import { call } from "../../helpers/request";

setupTestDatabase();

describe("NUL bytes never reach the database", () => {
  test("in a login body: 400 VALIDATION_ERROR, not 500", async () => {
    const res = await call(login, "POST", "/api/auth/login", { body: { username: "ad\u0000min", password: "x" }, ip: "198.18.5.1" });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "VALIDATION_ERROR", details: { username: [expect.any(String)] } });
    const reg = await call(register, "POST", "/api/auth/register", {
      body: { username: "nul\u0000user", email: "n@example.com", password: "paper-lantern-4217", shop_name: "S\u0000" },
    });
    expect(reg.status).toBe(400);
  });

  test("in a public path: a 4xx, not 500", async () => {
    for (const orderId of ["ORD-\u0000", "ORD-abc\u0000def", "\u0000"]) {
      const res = await call(payStatus, "GET", "/api/pay/x/", { params: { orderId } });
      expect([400, 404], JSON.stringify(orderId)).toContain(res.status);
    }
  });

  test("in a sandbox inbox capture body: recorded, not 500", async () => {
    const merchant = await createMerchant();
    const inbox = await call(listInbox, "GET", "/api/sandbox/inbox/", { token: merchant.access });
    const token = new URL(inbox.body.inbox_url).pathname.split("/").filter(Boolean).at(-1)!;
    const request = new Request(`http://localhost:3000/api/sandbox/inbox/${token}/`, { method: "POST", body: '{"a":"\u0000"}' });
    const res = await capture.POST(request, { params: Promise.resolve({ token }) });
    expect(res.status).toBe(200);
  });
});
