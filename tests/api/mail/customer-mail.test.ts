/** Issue 55 item 3: a store's mail to its customers carries a one-click unsubscribe, honours it, and stops at an address that bounced. */
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { POST as postInvoice } from "@/app/api/invoices/route";
import { POST as sendInvoice } from "@/app/api/invoices/[id]/send/route";
import { POST as unsubscribe } from "@/app/api/mail/unsubscribe/route";
import { env } from "@/lib/env";
import { settleBackgroundMail } from "@/lib/mail/mailer";
import { isSuppressed } from "@/lib/mail/customer-mail";
import { setupTestDatabase } from "../../helpers/db";
import { setupTestDevnet } from "../../helpers/devnet";
import { createMerchant, createWallet, uniqueName, type TestMerchant } from "../../helpers/factories";
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

async function invoiceTo(merchant: TestMerchant, email: string) {
  const body = {
    client: { name: "Client", email },
    items: [{ description: "Work", quantity: "1", unit_price: "10" }],
    currency: "USD",
    due_at: new Date(Date.now() + 7 * 86_400_000).toISOString(),
    accepted_methods: [{ blockchain: "base", currency: "USDC" }],
  };
  const res = await call(postInvoice, "POST", "/api/invoices/", { token: merchant.access, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.id as string;
}
const send = (merchant: TestMerchant, id: string) => call(sendInvoice, "POST", "/", { token: merchant.access, params: { id } });

describe("mail to a store's customers", () => {
  test("carries List-Unsubscribe (one click); after unsubscribing, that store's mail stops and another store's still goes", async () => {
    const shop = await createMerchant();
    const otherShop = await createMerchant();
    await createWallet(shop, { blockchain: 2 });
    await createWallet(otherShop, { blockchain: 2 });
    const email = `${uniqueName("customer")}@example.com`;
    const first = await invoiceTo(shop, email);
    expect((await send(shop, first)).status).toBe(200);
    const mail = await smtp.waitFor(email, /^Invoice /);
    const header = /^List-Unsubscribe: <([^>]+)>/im.exec(mail.raw.replace(/\r\n[ \t]+/g, " "));
    expect(header).not.toBeNull();
    expect(mail.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/im);
    expect(mail.body).toMatch(/To stop receiving these e-mails from this store: https?:\/\/\S+\/unsubscribe\?token=/);
    const oneClick = new URL(header![1]!);
    expect(oneClick.pathname).toBe("/api/mail/unsubscribe");
    const token = oneClick.searchParams.get("token")!;

    const forged = await call(unsubscribe, "POST", `/api/mail/unsubscribe?token=${token.slice(0, -2)}xx`, {});
    expect(forged.status).toBe(400);
    expect(forged.body.error.details.token).toBeDefined();
    const done = await call(unsubscribe, "POST", `/api/mail/unsubscribe?token=${token}`, {});
    expect(done.status).toBe(200);
    expectMatchesSchema("POST /api/mail/unsubscribe", 200, done.body);
    expect(done.body.data).toEqual({ email });
    expect(await isSuppressed(testDb.db, shop.id, email)).toBe(true);

    const before = smtp.to(email).length;
    const second = await invoiceTo(shop, email);
    expect((await send(shop, second)).status).toBe(200);
    // another store's mail still goes (and proves the first store's would have arrived by now)
    expect((await send(otherShop, await invoiceTo(otherShop, email))).status).toBe(200);
    await smtp.waitFor(email, /^Invoice /, before + 1);
    const shopName = mail.subject.split(" from ")[1]!;
    expect(smtp.to(email).filter((m) => m.subject.endsWith(` from ${shopName}`))).toHaveLength(1);
    expect(smtp.to(email)).toHaveLength(before + 1);
  });

  test("an address the SMTP server refuses for good (550) is suppressed for every store", async () => {
    const refusing = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onRcptTo(address, _session, callback) {
        const error = Object.assign(new Error("5.1.1 No such mailbox"), { responseCode: 550 });
        callback(address.address.startsWith("gone-") ? error : undefined);
      },
      onData(stream, _session, callback) {
        stream.on("data", () => {}).on("end", () => callback());
      },
    });
    await new Promise<void>((resolve) => refusing.listen(0, "127.0.0.1", resolve));
    env.SMTP_URL = `smtp://127.0.0.1:${(refusing.server.address() as AddressInfo).port}`;
    try {
      const shop = await createMerchant();
      const other = await createMerchant();
      await createWallet(shop, { blockchain: 2 });
      const email = `gone-${uniqueName("c")}@example.com`;
      expect((await send(shop, await invoiceTo(shop, email))).status).toBe(200);
      expect(await isSuppressed(testDb.db, shop.id, email)).toBe(true);
      expect(await isSuppressed(testDb.db, other.id, email.toUpperCase())).toBe(true);
      expect(await isSuppressed(testDb.db, shop.id, `ok-${email}`)).toBe(false);
    } finally {
      await new Promise<void>((resolve) => refusing.close(() => resolve()));
    }
  });
});
