/**
 * Issue 52 item 5: the dashboard speaks the merchant's language, kept per login. The dashboard's
 * language switch (POST /language/{locale}) and Settings' action keep the choice on the person; the
 * next request's dashboard locale is that choice, whatever the browser negotiates; without one the
 * negotiated language applies; an unknown language is 400 VALIDATION_ERROR in the error envelope.
 */
import { NextRequest } from "next/server";
import { describe, expect, test } from "vitest";
import { dashboardLocaleOf, resolveDashboardLocale } from "@/lib/auth/dashboard-locale";
import { dashboardLocaleHeader, localeCookieName } from "@/lib/i18n/locales";
import { setupTestDatabase } from "../helpers/db";
import { createMerchant } from "../helpers/factories";
import { signInAs } from "./session";

const { GET: getLanguage, POST: postLanguage } = await import("@/app/language/[locale]/route");
const { setDashboardLocaleAction } = await import("@/app/(dashboard)/dashboard/settings/actions");
const { proxy } = await import("@/proxy");

const database = setupTestDatabase();

function choose(locale: string, options: { back?: string; origin?: string } = {}) {
  const url = new URL(`http://localhost:3000/language/${encodeURIComponent(locale)}`);
  if (options.back) url.searchParams.set("return", options.back);
  const headers = new Headers({ host: "localhost:3000" });
  if (options.origin) headers.set("origin", options.origin);
  return postLanguage(new Request(url, { method: "POST", headers }), { params: Promise.resolve({ locale }) });
}

/** The locale the proxy negotiates for a dashboard page (the cookie, then Accept-Language), as i18n/request.ts receives it. */
function negotiatedFor(path: string, headers: Record<string, string>): string | null {
  const response = proxy(new NextRequest(`http://localhost:3000${path}`, { headers }));
  return response.headers.get(`x-middleware-request-${dashboardLocaleHeader}`);
}

describe("the dashboard's language, per login", () => {
  test("the switch keeps the choice on the login, sets the cookie, goes back; the next request renders in it whatever the browser asks", async () => {
    const merchant = await createMerchant();
    signInAs(merchant);
    expect(await dashboardLocaleOf(database.db, merchant.id)).toBeNull();
    expect(await resolveDashboardLocale(database.db, merchant.id, "fr")).toBe("fr"); // nothing chosen: the negotiated one

    const response = await choose("de", { back: "/dashboard/orders?status=pending", origin: "http://localhost:3000" });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/dashboard/orders?status=pending");
    expect(response.headers.get("set-cookie")).toContain(`${localeCookieName}=de;`);
    expect(await dashboardLocaleOf(database.db, merchant.id)).toBe("de");

    // The next request: its browser asks for English (no cookie on another device), the login's choice wins.
    expect(negotiatedFor("/dashboard", { "accept-language": "en-US,en;q=0.9" })).toBe("en");
    expect(await resolveDashboardLocale(database.db, merchant.id, "en")).toBe("de");

    // Settings' action changes it again; the same rule refuses an unknown language there.
    expect(await setDashboardLocaleAction(form({ locale: "ja" }))).toMatchObject({ ok: true, data: { locale: "ja" } });
    expect(await resolveDashboardLocale(database.db, merchant.id, "en")).toBe("ja");
    expect(await setDashboardLocaleAction(form({ locale: "klingon" }))).toMatchObject({ ok: false, error: { code: "VALIDATION_ERROR" } });
    expect(await dashboardLocaleOf(database.db, merchant.id)).toBe("ja");

    // Another login's choice is its own.
    const other = await createMerchant();
    expect(await resolveDashboardLocale(database.db, other.id, "es")).toBe("es");
  });

  test("an unknown language is 400 VALIDATION_ERROR in the envelope and changes nothing; the return path stays on this site", async () => {
    const merchant = await createMerchant();
    signInAs(merchant);
    await choose("pt");
    const bad = await choose("xx");
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ success: false, error: { code: "VALIDATION_ERROR", details: { locale: [expect.stringContaining("en, de")] } } });
    expect(await dashboardLocaleOf(database.db, merchant.id)).toBe("pt");

    const away = await choose("zh", { back: "//evil.example/x" });
    expect(away.headers.get("location")).toBe("/");
  });

  test("a switch posted from another site is refused; signed out it only sets the cookie; the customer pages' GET switch is unchanged", async () => {
    const merchant = await createMerchant();
    signInAs(merchant);
    const crossSite = await choose("fr", { origin: "https://evil.example" });
    expect(crossSite.status).toBe(403);
    expect(await crossSite.json()).toMatchObject({ success: false, error: { code: "CROSS_ORIGIN_REQUEST" } });
    expect(await dashboardLocaleOf(database.db, merchant.id)).toBeNull();

    signInAs(null);
    const signedOut = await choose("fr", { back: "/sign-in" });
    expect(signedOut.status).toBe(303);
    expect(signedOut.headers.get("set-cookie")).toContain(`${localeCookieName}=fr;`);
    expect(await dashboardLocaleOf(database.db, merchant.id)).toBeNull();

    const get = await getLanguage(new Request("http://localhost:3000/language/xx?return=/pay/ORD-1"), { params: Promise.resolve({ locale: "xx" }) });
    expect(get.status).toBe(303);
    expect(get.headers.get("set-cookie")).toBeNull();
  });

  test("the proxy negotiates the dashboard's and the sign-in pages' language (cookie, then Accept-Language); docs stay out (English)", () => {
    expect(negotiatedFor("/dashboard/orders", { "accept-language": "ja,en;q=0.5" })).toBe("ja");
    expect(negotiatedFor("/dashboard/orders/ORD-x", { "accept-language": "de-CH" })).toBe("de");
    expect(negotiatedFor("/sign-in", { "accept-language": "de-CH" })).toBe("de");
    expect(negotiatedFor("/forgot-password", { cookie: `${localeCookieName}=pt`, "accept-language": "de" })).toBe("pt");
    expect(negotiatedFor("/dashboard", { cookie: `${localeCookieName}=zh`, "accept-language": "de" })).toBe("zh");
    expect(negotiatedFor("/docs", { "accept-language": "de" })).toBeNull();
    expect(negotiatedFor("/dashboardx", { "accept-language": "de" })).toBeNull();
  });
});

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.append(key, value);
  return data;
}
