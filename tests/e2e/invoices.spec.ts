/**
 * Issue 55 items 1–2 in the browser: a merchant sends an invoice over the API, the invoice mail
 * arrives at a real SMTP server, the client opens the link from that mail, pays part of the invoice on
 * the sandbox devnet, then the rest, sees it paid, gets the receipt mail and downloads the invoice's
 * and the receipt's PDFs.
 *
 * The shared e2e servers send no mail (no SMTP_URL: the team spec reads an invitation link from the
 * page because of it), so this spec starts its own server (same build, its own devnet and database)
 * with SMTP_URL pointing at an SMTP sink it runs itself (tests/helpers/smtp-sink.ts, smtp-server).
 * In the sandbox the mailer sends through SMTP and keeps the outbox copy too; the test reads the mail
 * the sink received.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { pdfTextLines } from "../helpers/pdf-text";
import { startSmtpSink, type ReceivedMail } from "../helpers/smtp-sink";
import { startAppServerOnTestDatabase, type AppServer } from "./app-server";
import { expectNoAxeViolations } from "./support";

let server: AppServer;
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  smtp = await startSmtpSink();
  server = await startAppServerOnTestDatabase({ distDir: process.env.E2E_DIST_DIR || ".next-e2e", devnet: true, env: { SMTP_URL: smtp.url } });
});
test.afterAll(async () => {
  await server?.stop();
  await smtp?.close();
});

async function api<T = any>(method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; body: T }> {
  const res = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function expectOk<T>(call: Promise<{ status: number; body: T }>, status: number, what: string): Promise<T> {
  const res = await call;
  expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(status);
  return res.body;
}

/** The hosted invoice page's address in a received mail (its text part). */
function invoiceLink(mail: ReceivedMail): string {
  const match = /https?:\/\/[^\s"<>]+\/invoice\/INV-[0-9A-Za-z]{22}/.exec(mail.body);
  if (!match) throw new Error(`no invoice link in: ${mail.body}`);
  return match[0];
}

/**
 * On the payment page the invoice's form led to: pays the order in full from the sandbox faucet (a
 * real devnet transfer), waits for it to confirm and for the page to return to the invoice (its
 * redirect_url).
 */
async function payOrderOnDevnet(page: Page, invoiceUrl: string) {
  await page.waitForURL(/\/pay\/ORD-[0-9A-Za-z]+$/);
  await page.getByRole("button", { name: "Pay in full" }).click();
  await expect(page.getByTestId("status")).toContainText("Payment confirmed", { timeout: 60_000 });
  await page.waitForURL(invoiceUrl, { timeout: 20_000 });
}

test("an invoice is mailed, opened from the received mail, paid in part and then in full on the devnet, and its PDFs downloaded", async ({ page }) => {
  test.setTimeout(300_000);
  const username = `e2e_inv_${randomBytes(4).toString("hex")}`;
  const password = "correct horse battery staple";
  await expectOk(api("POST", "/api/auth/register/", { username, email: `${username}@example.com`, password, shop_name: "Harbour Design" }), 201, "register");
  const { access: token } = await expectOk(api<{ access: string }>("POST", "/api/auth/login/", { username, password }), 200, "login");
  await expectOk(
    api(
      "POST",
      "/api/merchant-wallets/",
      { blockchain: 2, wallet_address: `0x${randomBytes(20).toString("hex")}`, confirmation_threshold: 1, is_active: true },
      token,
    ),
    201,
    "wallet",
  );
  await expectOk(
    api(
      "PUT",
      "/api/invoice-settings/",
      { number_format: "HD-{yyyy}-{seq:3}", allow_partial_payments: true, reminder_days_before: [], reminder_days_after: [] },
      token,
    ),
    200,
    "invoice settings",
  );

  const clientEmail = `client_${randomBytes(4).toString("hex")}@example.com`;
  const created = await expectOk(
    api(
      "POST",
      "/api/invoices/",
      {
        client: { name: "Acme Ltd", email: clientEmail, address: "1 Quay Street, Bristol", tax_id: "GB123456789" },
        items: [
          { description: "Brand workshop", quantity: "1", unit_price: "60" },
          { description: "Design hours", quantity: "2", unit_price: "20" },
        ],
        currency: "USDC",
        due_at: new Date(Date.now() + 14 * 24 * 3600_000).toISOString(),
        notes: "Thank you for your business.",
        accepted_methods: [{ blockchain: "base", currency: "USDC" }],
      },
      token,
    ),
    201,
    "create invoice",
  );
  const invoice = (created as { data: { id: string; number: string; total: string } }).data;
  expect(invoice.number).toMatch(/^HD-\d{4}-001$/);
  await expectOk(api("POST", `/api/invoices/${invoice.id}/send/`, undefined, token), 200, "send invoice");
  const merchantView = async () => (await expectOk(api("GET", `/api/invoices/${invoice.id}/`, undefined, token), 200, "get invoice")).data;

  // The mail the SMTP server received carries the hosted page's link; the test goes where it leads.
  const mail = await smtp.waitFor(clientEmail, new RegExp(`^Invoice ${invoice.number} from Harbour Design$`), 1, 30_000);
  expect(mail.raw).toMatch(/^List-Unsubscribe:\s+<http:\/\/[^>]+\/api\/mail\/unsubscribe\?token=/im);
  const link = invoiceLink(mail);
  expect(new URL(link).origin).toBe(server.baseUrl);
  expect(new URL(link).pathname).toBe(`/invoice/${invoice.id}`);

  await page.goto(link);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Invoice ${invoice.number}`);
  await expect(page.getByTestId("invoice-status")).toHaveText("Open");
  const opened = await merchantView();
  expect(Number(opened.total)).toBe(100);
  await expect(page.getByTestId("invoice-due")).toHaveText(`${opened.amount_due} USDC`);
  await expectNoAxeViolations(page);

  // A part first: 40 of the 100 USDC.
  const amount = page.getByLabel("Amount to pay (USDC)");
  await expect(amount).toHaveValue(opened.amount_due);
  await amount.fill("40");
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await payOrderOnDevnet(page, link);

  // The settle-invoices task credits the confirmed order (every 15 s).
  await expect.poll(async () => (await merchantView()).status, { timeout: 60_000 }).toBe("partially_paid");
  const partly = await merchantView();
  await page.goto(link);
  await expect(page.getByTestId("invoice-status")).toHaveText("Partially paid");
  await expect(page.getByTestId("invoice-paid")).toHaveText(`${partly.amount_paid} USDC`);
  await expect(page.getByTestId("invoice-due")).toHaveText(`${partly.amount_due} USDC`);
  expect(Number(partly.amount_paid)).toBe(40);
  expect(Number(partly.amount_due)).toBe(60);
  await expect(page.getByRole("link", { name: "Download receipt" })).toHaveCount(0);

  // Then the rest: the amount field offers what is still due.
  await expect(page.getByLabel("Amount to pay (USDC)")).toHaveValue(partly.amount_due);
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await payOrderOnDevnet(page, link);

  await expect.poll(async () => (await merchantView()).status, { timeout: 60_000 }).toBe("paid");
  await page.goto(link);
  await expect(page.getByTestId("invoice-status")).toHaveText("Paid");
  await expect(page.getByText("This invoice is paid in full. Thank you.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Continue to payment" })).toHaveCount(0);
  await expect(page.getByTestId("invoice-due")).toHaveText(/^0(\.0+)? USDC$/);
  await expectNoAxeViolations(page);

  // The client's receipt mail, with the same link.
  const receiptMail = await smtp.waitFor(clientEmail, new RegExp(`^Receipt: invoice ${invoice.number} from Harbour Design is paid$`), 1, 30_000);
  expect(invoiceLink(receiptMail)).toBe(link);

  // The invoice's PDF and its receipt's, downloaded from the page.
  for (const [name, heading] of [
    ["Download PDF", `Invoice ${invoice.number}`],
    ["Download receipt", `Receipt for invoice ${invoice.number}`],
  ] as const) {
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name }).click()]);
    const pdf = readFileSync(await download.path());
    expect(pdf.subarray(0, 5).toString("latin1"), name).toBe("%PDF-");
    expect(download.suggestedFilename(), name).toMatch(/\.pdf$/);
    const lines = pdfTextLines(pdf);
    expect(lines, name).toContain(heading);
    expect(lines, name).toContain("Harbour Design");
  }
});
