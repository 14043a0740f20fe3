/** Security headers on pages and the payment pages' CSP (from the proxy; WalletConnect's sources only when configured). */
import { describe, expect, test } from "vitest";
import { NextRequest } from "next/server";
import { contentSecurityPolicy, walletConnectConfigured } from "@/lib/http/content-security-policy";
import nextConfig from "@/next.config";
import { proxy } from "@/proxy";
import { setupTestDatabase } from "../../helpers/db";

setupTestDatabase();

describe("security headers on pages", () => {
  test("CSP with frame-ancestors on pages, nosniff and Referrer-Policy everywhere, HSTS only over https", async () => {
    const rules = await nextConfig.headers!();
    // Every page but the payment and subscribe pages, whose CSP proxy.ts sets at run time (below).
    const page = rules.find((r) => r.source === "/((?!api/|pay/|subscribe/).*)")!;
    const csp = page.headers.find((h) => h.key === "Content-Security-Policy")!.value;
    expect(csp).toMatch(/frame-ancestors 'none'/);
    expect(csp).toMatch(/default-src 'self'/);
    expect(csp).toMatch(/object-src 'none'/);
    const all = rules.filter((r) => r.source === "/:path*" && !r.has).flatMap((r) => r.headers);
    expect(all).toEqual(
      expect.arrayContaining([
        { key: "X-Content-Type-Options", value: "nosniff" },
        { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
      ]),
    );
    const hsts = rules.find((r) => r.headers.some((h) => h.key === "Strict-Transport-Security"))!;
    expect(hsts.has).toEqual([{ type: "header", key: "x-forwarded-proto", value: "https" }]);
    expect(csp).toContain("frame-src 'none'");
    expect(csp).not.toMatch(/walletconnect|reown|wss:/);
  });

  test("the payment and subscribe pages get their CSP from the proxy; WalletConnect's sources only with WALLETCONNECT_PROJECT_ID", async () => {
    for (const path of ["/pay/ORD-123", "/pay/ORD-123/receipt", "/subscribe/SUB-123", "/subscribe/plan/PLN-123", "/subscribe/manage/SUB-123.x"]) {
      const res = proxy(new NextRequest(`http://gateway.test${path}`));
      const csp = res.headers.get("content-security-policy")!;
      expect(csp).toMatch(/frame-ancestors 'none'/);
      expect(csp).toMatch(/object-src 'none'/);
      // The test environment sets no project id.
      expect(csp).not.toMatch(/walletconnect|reown|wss:/);
    }
    expect(proxy(new NextRequest("http://gateway.test/link/abc")).headers.get("content-security-policy")).toBeNull();

    const withWalletConnect = contentSecurityPolicy({ dev: false, walletConnect: true });
    expect(withWalletConnect).toContain(
      "connect-src 'self' https: http://127.0.0.1:* http://localhost:* ws://127.0.0.1:* ws://localhost:* wss://relay.walletconnect.com wss://relay.walletconnect.org",
    );
    expect(withWalletConnect).toContain("frame-src https://verify.walletconnect.com https://verify.walletconnect.org");
    expect(withWalletConnect).toContain("font-src 'self' data: https://fonts.reown.com");
    expect(withWalletConnect).not.toContain("'unsafe-eval'");
    expect(walletConnectConfigured({ WALLETCONNECT_PROJECT_ID: "abc" })).toBe(true);
    expect(walletConnectConfigured({ WALLETCONNECT_PROJECT_ID: "" })).toBe(false);
    expect(walletConnectConfigured({})).toBe(false);
  });
});
