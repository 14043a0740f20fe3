/** Issue 13 item 8: the smaller findings of the security review, each over the real surface. */
import { describe, expect, test } from "vitest";
import { POST as login } from "@/app/api/auth/login/route";
import { POST as register } from "@/app/api/auth/register/route";
import { GET as payStatus } from "@/app/api/pay/[orderId]/route";
import * as capture from "@/app/api/sandbox/inbox/[token]/route";
import { GET as listInbox } from "@/app/api/sandbox/inbox/route";
import { log } from "@/lib/log";
import { redactUrls } from "@/lib/redact";
import { safeReturnPath } from "@/lib/http/safe-redirect";
import { NextRequest } from "next/server";
import { contentSecurityPolicy, walletConnectConfigured } from "@/lib/http/content-security-policy";
import nextConfig from "@/next.config";
import { proxy } from "@/proxy";
import { captureOutput } from "../../helpers/capture-output";
import { setupTestDatabase } from "../../helpers/db";
import { createMerchant, uniqueName } from "../../helpers/factories";
import { call } from "../../helpers/request";

setupTestDatabase();

describe("open redirect after sign-in", () => {
  test("paths a browser would take off-site fall back to /dashboard", () => {
    for (const value of ["/\t/evil.example", decodeURIComponent("/%09/evil.example"), "/\n/evil.example", "//evil.example", "/\\evil.example", "/\\/evil.example", "https://evil.example/", " /x", "/%0a/x".replace("%0a", "\n")]) {
      expect(safeReturnPath(value, { fallback: "/dashboard" }), JSON.stringify(value)).toBe("/dashboard");
    }
    expect(safeReturnPath("/dashboard/orders?status=pending#top", { fallback: "/dashboard" })).toBe("/dashboard/orders?status=pending#top");
    expect(safeReturnPath("/%09/evil.example", { fallback: "/dashboard" })).toBe("/dashboard"); // an encoded tab a later decode would drop
  });
});

describe("NUL bytes never reach the database", () => {
  test("in a login body: 400 VALIDATION_ERROR, not 500", async () => {
    const res = await call(login, "POST", "/api/auth/login", { body: { username: "ad\u0000min", password: "x" }, ip: "198.18.5.1" });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "VALIDATION_ERROR", details: { username: [expect.any(String)] } });
    const reg = await call(register, "POST", "/api/auth/register", { body: { username: "nul\u0000user", email: "n@example.com", password: "paper-lantern-4217", shop_name: "S\u0000" } });
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
    const request = new Request(`http://localhost:3000/api/sandbox/inbox/${token}/`, { method: "POST", body: "{\"a\":\"\u0000\"}" });
    const res = await capture.POST(request, { params: Promise.resolve({ token }) });
    expect(res.status).toBe(200);
  });
});

describe("security headers on pages", () => {
  test("CSP with frame-ancestors on pages, nosniff and Referrer-Policy everywhere, HSTS only over https", async () => {
    const rules = await nextConfig.headers!();
    // Every page but the payment pages, whose CSP proxy.ts sets at run time (below).
    const page = rules.find((r) => r.source === "/((?!api/|pay/).*)")!;
    const csp = page.headers.find((h) => h.key === "Content-Security-Policy")!.value;
    expect(csp).toMatch(/frame-ancestors 'none'/);
    expect(csp).toMatch(/default-src 'self'/);
    expect(csp).toMatch(/object-src 'none'/);
    const all = rules.filter((r) => r.source === "/:path*" && !r.has).flatMap((r) => r.headers);
    expect(all).toEqual(expect.arrayContaining([{ key: "X-Content-Type-Options", value: "nosniff" }, { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" }]));
    const hsts = rules.find((r) => r.headers.some((h) => h.key === "Strict-Transport-Security"))!;
    expect(hsts.has).toEqual([{ type: "header", key: "x-forwarded-proto", value: "https" }]);
    expect(csp).toContain("frame-src 'none'");
    expect(csp).not.toMatch(/walletconnect|reown|wss:/);
  });

  test("the payment pages get their CSP from the proxy; WalletConnect's sources only with WALLETCONNECT_PROJECT_ID", async () => {
    for (const path of ["/pay/ORD-123", "/pay/ORD-123/receipt"]) {
      const res = proxy(new NextRequest(`http://gateway.test${path}`));
      const csp = res.headers.get("content-security-policy")!;
      expect(csp).toMatch(/frame-ancestors 'none'/);
      expect(csp).toMatch(/object-src 'none'/);
      // The test environment sets no project id.
      expect(csp).not.toMatch(/walletconnect|reown|wss:/);
    }
    expect(proxy(new NextRequest("http://gateway.test/link/abc")).headers.get("content-security-policy")).toBeNull();

    const withWalletConnect = contentSecurityPolicy({ dev: false, walletConnect: true });
    expect(withWalletConnect).toContain("connect-src 'self' https: http://127.0.0.1:* http://localhost:* ws://127.0.0.1:* ws://localhost:* wss://relay.walletconnect.com wss://relay.walletconnect.org");
    expect(withWalletConnect).toContain("frame-src https://verify.walletconnect.com https://verify.walletconnect.org");
    expect(withWalletConnect).toContain("font-src 'self' data: https://fonts.reown.com");
    expect(withWalletConnect).not.toContain("'unsafe-eval'");
    expect(walletConnectConfigured({ WALLETCONNECT_PROJECT_ID: "abc" })).toBe(true);
    expect(walletConnectConfigured({ WALLETCONNECT_PROJECT_ID: "" })).toBe(false);
    expect(walletConnectConfigured({})).toBe(false);
  });
});

describe("RPC URLs with keys never reach logs or merchants", () => {
  test("paths, queries and credentials of URLs are cut to the origin; loopback devnet URLs stay", () => {
    const text = "HTTP request failed. URL: https://base-mainnet.g.alchemy.com/v2/AbCdEfSeCrEt Details: 401 and wss://mainnet.infura.io/ws/v3/key123, https://user:pw@rpc.example/ and https://rpc.example/?apikey=zz";
    const out = redactUrls(text);
    for (const secret of ["AbCdEfSeCrEt", "key123", "user:pw", "apikey=zz"]) expect(out).not.toContain(secret);
    expect(out).toContain("https://base-mainnet.g.alchemy.com/…");
    expect(redactUrls("URL: http://127.0.0.1:8545/")).toBe("URL: http://127.0.0.1:8545/");
  });

  test("a log line carrying such an error is redacted", async () => {
    const { output } = await captureOutput(async () => log.error("scan failed", { error: "fetch failed: https://eth-mainnet.example/v2/SUPERSECRETKEY" }));
    expect(output).toContain("scan failed");
    expect(output).not.toContain("SUPERSECRETKEY");
  });
});

describe("common passwords", () => {
  test.each(["12345678", "password", "Password1", "qwerty123", "iloveyou", "aaaaaaaa", "password2024!", "abcdefgh", "87654321"])("%s is refused", async (password) => {
    const username = uniqueName("pw");
    const res = await call(register, "POST", "/api/auth/register", { body: { username, email: `${username}@example.com`, password, shop_name: "Shop" } });
    expect(res.status).toBe(400);
    expect(res.body.error.details.password[0]).toMatch(/common|repeated|sequence/);
  });

  test("a less predictable one is accepted", async () => {
    const username = uniqueName("pw");
    const res = await call(register, "POST", "/api/auth/register", { body: { username, email: `${username}@example.com`, password: "paper-lantern-4217", shop_name: "Shop" } });
    expect(res.status).toBe(201);
  });
});
