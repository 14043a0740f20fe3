/** Issue 55 item 4: the store's own look: contrast-checked accent colour, a logo validated and re-encoded, shown on the invoice page and in customer mail. */
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { GET as getBranding, PUT as putBranding } from "@/app/api/branding/route";
import { DELETE as deleteLogo, PUT as putLogo } from "@/app/api/branding/logo/route";
import { POST as postInvoice } from "@/app/api/invoices/route";
import { POST as sendInvoice } from "@/app/api/invoices/[id]/send/route";
import { GET as getHostedInvoice } from "@/app/api/hosted-invoices/[invoiceId]/route";
import { GET as getStoreLogo } from "@/app/store-logo/[merchantId]/route";
import { storeLookForLink, storeLookForOrder } from "@/lib/branding/look-for-page";
import { env } from "@/lib/env";
import { settleBackgroundMail } from "@/lib/mail/mailer";
import { setupTestDatabase } from "../../helpers/db";
import { setupTestDevnet } from "../../helpers/devnet";
import { createApiKeyFor, createMerchant, createOrder, createWallet, uniqueName, type TestMerchant } from "../../helpers/factories";
import { expectMatchesSchema } from "../../helpers/openapi";
import { call } from "../../helpers/request";
import { startSmtpSink } from "../../helpers/smtp-sink";

const testDb = setupTestDatabase();
setupTestDevnet();
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
const smtpUrlBefore = env.SMTP_URL;
beforeAll(async () => {
  smtp = await startSmtpSink();
});
beforeEach(() => {
  env.SMTP_URL = smtp.url;
});
afterAll(async () => {
  await settleBackgroundMail();
  env.SMTP_URL = smtpUrlBefore;
  await smtp.close();
});

const brand = { display_name: "Acme Studio", accent_color: "#1D4ED8", support_email: "help@acme.example", support_url: "https://acme.example/help" };
const upload = (m: TestMerchant, image: Buffer | string) =>
  call(putLogo, "PUT", "/api/branding/logo/", { token: m.access, body: { image: typeof image === "string" ? image : image.toString("base64") } });
const fetchLogo = async (merchantId: number) => {
  const res = await getStoreLogo(new Request(`http://localhost/store-logo/${merchantId}`), { params: Promise.resolve({ merchantId: String(merchantId) }) });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
};

describe("store branding", () => {
  test("PUT /api/branding/: an accent colour white text cannot be read on is refused; a dark one is kept; API keys may read, not change", async () => {
    const m = await createMerchant();
    expect((await call(getBranding, "GET", "/", { token: m.access })).body.data).toEqual({
      display_name: null,
      accent_color: null,
      support_email: null,
      support_url: null,
      logo_url: null,
      updated_at: null,
    });
    const pale = await call(putBranding, "PUT", "/", { token: m.access, body: { ...brand, accent_color: "#ffd700" } });
    expect(pale.body.error).toMatchObject({ code: "VALIDATION_ERROR", details: { accent_color: [expect.stringMatching(/contrast of 1\.\d\d:1/)] } });
    expect((await call(putBranding, "PUT", "/", { token: m.access, body: { ...brand, accent_color: "blue" } })).body.error.details.accent_color).toBeDefined();
    expect(
      (await call(putBranding, "PUT", "/", { token: m.access, body: { ...brand, support_url: "javascript:alert(1)" } })).body.error.details.support_url,
    ).toBeDefined();
    const saved = await call(putBranding, "PUT", "/", { token: m.access, body: brand });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expectMatchesSchema("PUT /api/branding", 200, saved.body);
    expect(saved.body.data).toMatchObject({ ...brand, accent_color: "#1d4ed8", logo_url: null });
    const { key } = await createApiKeyFor(m, { preset: "read_only" });
    expect((await call(getBranding, "GET", "/", { token: key })).body.data.display_name).toBe("Acme Studio");
    expect((await call(putBranding, "PUT", "/", { token: key, body: brand })).status).toBe(403);
  });

  test("a logo is decoded, scaled and re-encoded as a PNG without metadata; SVG and non-images are refused", async () => {
    const m = await createMerchant();
    const jpeg = await sharp({ create: { width: 1200, height: 600, channels: 3, background: "#c00" } })
      .jpeg()
      .withMetadata({ exif: { IFD0: { Copyright: "secret-location" } } })
      .toBuffer();
    const saved = await upload(m, jpeg);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data.logo_url).toMatch(new RegExp(`/store-logo/${m.id}\\?v=\\d+$`));
    const logo = await fetchLogo(m.id);
    expect(logo.status).toBe(200);
    expect(logo.headers.get("content-type")).toBe("image/png");
    expect(logo.headers.get("x-content-type-options")).toBe("nosniff");
    const meta = await sharp(logo.body).metadata();
    expect(meta).toMatchObject({ format: "png", width: 512, height: 256 });
    expect(meta.exif).toBeUndefined();
    expect(logo.body.includes(Buffer.from("secret-location"))).toBe(false);

    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script><rect width="10" height="10"/></svg>');
    expect((await upload(m, svg)).body.error).toMatchObject({ code: "VALIDATION_ERROR", details: { image: [expect.stringContaining("SVG")] } });
    expect((await upload(m, Buffer.from("%PDF-1.7 not an image"))).body.error).toMatchObject({
      code: "VALIDATION_ERROR",
      details: { image: [expect.any(String)] },
    });
    // the refused uploads left the logo as it was
    expect((await fetchLogo(m.id)).body.equals(logo.body)).toBe(true);

    expect((await call(deleteLogo, "DELETE", "/", { token: m.access })).body.data.logo_url).toBeNull();
    expect((await fetchLogo(m.id)).status).toBe(404);
  });

  test("the invoice page's view and the customer mail carry the store's name, colour, logo and support contact", async () => {
    const m = await createMerchant();
    await createWallet(m, { blockchain: 2 });
    await call(putBranding, "PUT", "/", { token: m.access, body: brand });
    await upload(
      m,
      await sharp({ create: { width: 64, height: 64, channels: 4, background: "#123456" } })
        .png()
        .toBuffer(),
    );
    const email = `${uniqueName("client")}@example.com`;
    const created = await call(postInvoice, "POST", "/", {
      token: m.access,
      body: {
        client: { name: "C", email },
        items: [{ description: "Work", quantity: "1", unit_price: "10" }],
        currency: "USD",
        due_at: new Date(Date.now() + 86_400_000).toISOString(),
        accepted_methods: [{ blockchain: "base", currency: "USDC" }],
      },
    });
    const id = created.body.data.id;
    expect((await call(sendInvoice, "POST", "/", { token: m.access, params: { id } })).status).toBe(200);
    const mail = await smtp.waitFor(email, /^Invoice /);
    expect(mail.subject).toMatch(/ from Acme Studio$/);
    expect(mail.body).toContain("Questions? help@acme.example · https://acme.example/help");

    const view = (await call(getHostedInvoice, "GET", "/", { params: { invoiceId: id } })).body.data;
    expect(view).toMatchObject({
      shop_name: "Acme Studio",
      brand: { accent_color: "#1d4ed8", support_email: "help@acme.example", logo_url: expect.stringContaining(`/store-logo/${m.id}`) },
    });
  });

  test("the payment, receipt and link pages find their store's look by the order or link they show", async () => {
    const { POST: postLink } = await import("@/app/api/payment-links/route");
    const m = await createMerchant();
    await createWallet(m, { blockchain: 2 });
    await call(putBranding, "PUT", "/", { token: m.access, body: brand });
    const order = await createOrder(m, { blockchain: "base", amount: "5", currency: "USDC" });
    expect(await storeLookForOrder(testDb.db, order.order_id)).toEqual({
      name: "Acme Studio",
      accentColor: "#1d4ed8",
      supportEmail: "help@acme.example",
      supportUrl: "https://acme.example/help",
      logoUrl: null,
    });
    const link = (
      await call(postLink, "POST", "/", { token: m.access, body: { title: "T", amount: "1", options: [{ blockchain: "base", currency: "USDC" }] } })
    ).body.data;
    expect((await storeLookForLink(testDb.db, link.id))?.accentColor).toBe("#1d4ed8");
    expect(await storeLookForOrder(testDb.db, "ORD-unknown")).toBeNull();
    expect(await storeLookForLink(testDb.db, "not-a-link")).toBeNull();
    // a store without branding: its shop name, nothing else
    const plain = await createMerchant();
    await createWallet(plain, { blockchain: 2 });
    const plainOrder = await createOrder(plain, { blockchain: "base", amount: "5", currency: "USDC" });
    expect(await storeLookForOrder(testDb.db, plainOrder.order_id)).toMatchObject({ accentColor: null, logoUrl: null, supportEmail: null });
  });

  test("the payment page's and link page's shop name is the store's display name when it set one, else its shop name", async () => {
    const { POST: postLink } = await import("@/app/api/payment-links/route");
    const { GET: getPublicLink } = await import("@/app/api/links/[linkId]/route");
    const { GET: getPublicOrder } = await import("@/app/api/pay/[orderId]/route");
    const m = await createMerchant();
    await createWallet(m, { blockchain: 2 });
    const order = await createOrder(m, { blockchain: "base", amount: "5", currency: "USDC" });
    const link = (
      await call(postLink, "POST", "/", { token: m.access, body: { title: "T", amount: "1", options: [{ blockchain: "base", currency: "USDC" }] } })
    ).body.data;
    const names = async () => {
      const pay = await call(getPublicOrder, "GET", `/api/pay/${order.order_id}/`, { params: { orderId: order.order_id } });
      const open = await call(getPublicLink, "GET", `/api/links/${link.id}/`, { params: { linkId: link.id } });
      expect(pay.status, JSON.stringify(pay.body)).toBe(200);
      expect(open.status, JSON.stringify(open.body)).toBe(200);
      return [pay.body.data.shop_name, open.body.data.shop_name];
    };
    expect(await names()).toEqual([`Shop of ${m.username}`, `Shop of ${m.username}`]);
    await call(putBranding, "PUT", "/", { token: m.access, body: brand });
    expect(await names()).toEqual(["Acme Studio", "Acme Studio"]);
    await call(putBranding, "PUT", "/", { token: m.access, body: { ...brand, display_name: "" } });
    expect(await names()).toEqual([`Shop of ${m.username}`, `Shop of ${m.username}`]);
  });
});
