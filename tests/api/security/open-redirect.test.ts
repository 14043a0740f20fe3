/**
 * Issue 24 item 1 and issue 49 item 4: one rule (lib/http/safe-redirect.ts) decides every redirect
 * target taken from a request. Each variant below goes through the function and through the real
 * callers: the language switcher's route, the sign-in page and the sign-in action (with next-auth's
 * redirect callback). Every answer is a path of this site, or the fallback; no route answers 500.
 */
import { redirect } from "next/navigation";
import { describe, expect, test, vi } from "vitest";
import { sameSiteRedirect, safeReturnPath, signInPathFor } from "@/lib/http/safe-redirect";
import { setupTestDatabase } from "../../helpers/db";
import { createMerchant } from "../../helpers/factories";
import { call } from "../../helpers/request";
import { sessionModuleMock, signInAs } from "../../dashboard/session";

// The sign-in page's words (next-intl's server functions, on the English messages).
vi.mock("next-intl/server", () => import("../../helpers/next-intl-server-en"));

/**
 * next-auth cannot load under vitest (tests/helpers/setup.ts): the stand-in does what next-auth does
 * for the credentials provider, the real `authorize` on the real database, then the redirect through
 * the app's redirect callback (as next-auth calls it, with the request's origin).
 */
vi.mock("@/lib/auth/next-auth", async () => {
  const { authorizeCredentials } = await import("@/lib/auth/dashboard-sign-in");
  const { getDb } = await import("@/lib/db/client");
  const { CredentialsSignin } = await import("@auth/core/errors");
  const signIn = vi.fn(async (_provider: string, options: Record<string, string>) => {
    const user = await authorizeCredentials(await getDb(), options, "203.0.113.49");
    if (!user) throw new CredentialsSignin();
    redirect(sameSiteRedirect({ url: options.redirectTo ?? "", baseUrl: "http://localhost:3000" }));
  });
  return { ...sessionModuleMock, signIn };
});
vi.mock("next/headers", () => ({ headers: async () => new Headers({ "x-gateway-peer-address": "203.0.113.49" }) }));

const { GET: switchLanguage } = await import("@/app/language/[locale]/route");
const { default: SignInPage } = await import("@/app/(auth)/sign-in/page");
const { signInAction } = await import("@/app/(auth)/sign-in/actions");

setupTestDatabase();

/** Targets a browser (or a proxy decoding once more) would take off this site, or that would break the Location header. */
const BYPASSES: string[] = [
  "//evil.example/x",
  "///evil.example/x",
  "////evil.example",
  "/\\evil.example",
  "\\/evil.example",
  "/\\/evil.example",
  "\\\\evil.example",
  "/%2f/evil.example",
  "/%2F%2Fevil.example",
  "%2F%2Fevil.example",
  "/%5cevil.example",
  "/%5C%5Cevil.example",
  "/%252f/evil.example",
  "/.//evil.example/x",
  "/././/evil.example/x",
  "/a/..//evil.example/x",
  "/..//evil.example/x",
  "/%2e%2e//evil.example",
  "/.%2e//evil.example",
  "/%2e/%2fevil.example",
  "/\t/evil.example/x",
  "/%09/evil.example/x",
  "\t//evil.example",
  "/\n/evil.example",
  "/%0a/x",
  "/\r/evil.example",
  "/%0d/evil.example",
  "/\r\nSet-Cookie: session=stolen",
  "/%0d%0aSet-Cookie:%20session=stolen",
  "/x\u0000/evil.example",
  "/%00/evil.example",
  "\u0000",
  "/\u007f/evil.example",
  " /dashboard",
  " //evil.example",
  "/ /evil.example",
  "/%20/evil.example",
  "/\u00a0/evil.example",
  "/\u200b/evil.example",
  "\u202e//evil.example",
  "https://evil.example/",
  "HTTPS://evil.example/",
  "http:/evil.example",
  "http:evil.example",
  "https:\\\\evil.example",
  "javascript:alert(1)",
  "JaVaScRiPt:alert(1)",
  "java\tscript:alert(1)",
  "javascript%3Aalert(1)",
  "data:text/html,<script>alert(1)</script>",
  "vbscript:msgbox(1)",
  "//user:pw@evil.example/",
  "https://gateway.invalid@evil.example/",
  "@evil.example",
  "evil.example",
  "/\uff0fevil.example",
  "/\uff3cevil.example",
  "\uff0f\uff0fevil.example",
  "/%EF%BC%8F/evil.example",
  "//evil%E3%80%82example",
  "/\u3002evil.example",
  "/\u2215evil.example",
  "/\u2044evil.example",
  "/\u29f8evil.example",
  `/${"a".repeat(5000)}`,
  "",
];

/** Paths of this site: they come back as the browser would resolve them. */
const SAME_SITE: Array<[string, string]> = [
  ["/pay/ORD-abc", "/pay/ORD-abc"],
  ["/pay/ORD-abc/receipt", "/pay/ORD-abc/receipt"],
  ["/dashboard/orders?status=pending#top", "/dashboard/orders?status=pending#top"],
  ["/dashboard/./orders", "/dashboard/orders"],
  ["/dashboard/a/../orders", "/dashboard/orders"],
  ["/dashboard/orders?q=a%2Fb", "/dashboard/orders?q=a%2Fb"],
  ["/?next=//evil.example", "/?next=//evil.example"],
  ["/#//evil.example", "/#//evil.example"],
  ["/user:pw@evil.example", "/user:pw@evil.example"],
];

/** What every answer must be: a printable-ASCII path that stays on whatever host serves it. */
function expectSameSite(path: string, input: unknown) {
  const label = JSON.stringify(input);
  expect(path, label).toMatch(/^\/(?![/\\])[\u0021-\u007e]*$/);
  expect(path.includes("\\"), label).toBe(false);
  expect(new URL(path, "https://pay.example").origin, label).toBe("https://pay.example");
}

describe("safeReturnPath", () => {
  test(`${BYPASSES.length} bypass variants fall back`, () => {
    expect(BYPASSES.length).toBeGreaterThanOrEqual(30);
    for (const value of BYPASSES) {
      expect(safeReturnPath(value), JSON.stringify(value)).toBe("/");
      expect(safeReturnPath(value, { fallback: "/dashboard" }), JSON.stringify(value)).toBe("/dashboard");
    }
  });

  test("anything but a string falls back", () => {
    for (const value of [undefined, null, 42, true, ["/dashboard"], { toString: () => "/dashboard" }, Symbol("x"), () => "/dashboard"]) {
      expect(safeReturnPath(value, { fallback: "/dashboard" })).toBe("/dashboard");
    }
  });

  test("our own paths, with queries and fragments, come back resolved", () => {
    for (const [value, expected] of SAME_SITE) {
      expect(safeReturnPath(value), value).toBe(expected);
      expectSameSite(safeReturnPath(value), value);
    }
  });

  test("next-auth's redirect callback: same-origin URLs become their path, everything else the dashboard", () => {
    const baseUrl = "https://pay.example";
    expect(sameSiteRedirect({ url: "/dashboard/orders", baseUrl })).toBe("https://pay.example/dashboard/orders");
    expect(sameSiteRedirect({ url: "https://pay.example/dashboard/links?x=1", baseUrl })).toBe("https://pay.example/dashboard/links?x=1");
    expect(sameSiteRedirect({ url: "https://pay.example:443/sign-in", baseUrl })).toBe("https://pay.example/sign-in");
    for (const url of [
      ...BYPASSES,
      "https://pay.example.evil.example/",
      "https://pay.example@evil.example/",
      "http://pay.example/",
      "https://pay.example/%2f/evil.example",
      "https://pay.example//evil.example",
    ]) {
      expect(sameSiteRedirect({ url, baseUrl }), JSON.stringify(url)).toBe("https://pay.example/dashboard");
    }
  });
});

describe("the language switcher (GET /language/{locale}?return=…)", () => {
  const switchTo = (ret: string) => call(switchLanguage as never, "GET", "/language/de", { params: { locale: "de" }, query: { return: ret } });

  test("every bypass variant goes back to / (303, never 500), and the choice is still kept", async () => {
    for (const value of BYPASSES) {
      const res = await switchTo(value);
      expect(res.status, JSON.stringify(value)).toBe(303);
      expect(res.headers.get("location"), JSON.stringify(value)).toBe("/");
      expect(res.headers.get("set-cookie")).toMatch(/^NEXT_LOCALE=de;/);
    }
  });

  test("the review's requests, as sent: an encoded tab is not followed off-site, an encoded newline is not a 500", async () => {
    for (const query of [
      "return=/%09/evil.example/x",
      "return=/%0a/x",
      "return=/%0d%0aSet-Cookie:%20a=b",
      "return=%2F%2Fevil.example",
      "return=/%5C/evil.example",
      "return=/pay/ORD-1&return=//evil.example",
    ]) {
      const res = await switchLanguage(new Request(`http://localhost:3000/language/de?${query}`), { params: Promise.resolve({ locale: "de" }) });
      expect(res.status, query).toBe(303);
      expect(res.headers.get("location"), query).toMatch(/^\/(pay\/ORD-1)?$/);
    }
  });

  test("a page of this site is where it goes back to", async () => {
    for (const [value, expected] of SAME_SITE) {
      const res = await switchTo(value);
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toBe(expected);
    }
    const unknownLocale = await call(switchLanguage as never, "GET", "/language/xx", { params: { locale: "xx" }, query: { return: "/pay/ORD-abc" } });
    expect(unknownLocale.status).toBe(303);
    expect(unknownLocale.headers.get("set-cookie")).toBeNull();
  });
});

describe("a signed-out dashboard visit (signInPathFor)", () => {
  test("the sign-in page with the page asked for, so signing in returns there", () => {
    expect(signInPathFor("/dashboard/orders?status=pending&q=a b")).toBe("/sign-in");
    expect(signInPathFor("/dashboard/orders?status=pending")).toBe(`/sign-in?callbackUrl=${encodeURIComponent("/dashboard/orders?status=pending")}`);
    expect(signInPathFor("/dashboard/orders/ORD-abc")).toBe("/sign-in?callbackUrl=%2Fdashboard%2Forders%2FORD-abc");
    expect(signInPathFor("/dashboard")).toBe("/sign-in");
    expect(signInPathFor(null)).toBe("/sign-in");
  });

  test("every bypass variant is the plain sign-in page (the overview after)", () => {
    for (const value of BYPASSES) expect(signInPathFor(value), JSON.stringify(value)).toBe("/sign-in");
  });
});

describe("signing in (callbackUrl)", () => {
  const redirectDigest = (error: unknown) => String((error as { digest?: unknown }).digest ?? "").split(";")[2];

  test("the sign-in page, already signed in, sends every bypass variant to /dashboard", async () => {
    const m = await createMerchant();
    signInAs(m);
    try {
      for (const value of [...BYPASSES, ["/dashboard", "//evil.example"]]) {
        const thrown = await SignInPage({ searchParams: Promise.resolve({ callbackUrl: value }) }).then(
          () => null,
          (error: unknown) => error,
        );
        expect(redirectDigest(thrown), JSON.stringify(value)).toBe("/dashboard");
      }
      const own = await SignInPage({ searchParams: Promise.resolve({ callbackUrl: "/dashboard/orders?status=pending" }) }).catch((error: unknown) => error);
      expect(redirectDigest(own)).toBe("/dashboard/orders?status=pending");
    } finally {
      signInAs(null);
    }
  });

  test("the sign-in form carries only a safe callbackUrl", async () => {
    for (const value of BYPASSES) {
      const page = (await SignInPage({ searchParams: Promise.resolve({ callbackUrl: value }) })) as {
        props: { children: Array<{ props?: { callbackUrl?: string } }> };
      };
      const form = page.props.children.find((child) => child?.props?.callbackUrl !== undefined);
      expect(form?.props?.callbackUrl, JSON.stringify(value)).toBe("/dashboard");
    }
  });

  test("the sign-in action, after a right password, redirects every bypass variant to /dashboard", async () => {
    const m = await createMerchant();
    for (const value of [...BYPASSES, ["/dashboard", "//evil.example"]]) {
      const form = new FormData();
      form.set("username", m.username);
      form.set("password", m.password);
      if (Array.isArray(value)) for (const v of value) form.append("callbackUrl", v);
      else form.set("callbackUrl", value);
      const thrown = await signInAction(form).then(
        (answer) => answer,
        (error: unknown) => error,
      );
      expect(redirectDigest(thrown), JSON.stringify(value)).toBe("http://localhost:3000/dashboard");
    }
    const form = new FormData();
    form.set("username", m.username);
    form.set("password", m.password);
    form.set("callbackUrl", "/dashboard/links");
    expect(redirectDigest(await signInAction(form).catch((error: unknown) => error))).toBe("http://localhost:3000/dashboard/links");
  });
});
