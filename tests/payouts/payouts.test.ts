/**
 * Payouts end to end on the real devnet: batches built over the API (legs or CSV, checked row by
 * row), signed and sent by the merchant's own wallet through the PayoutDisperser in one
 * transaction, reported by hash, then settled from the receipt (paid / failed per leg) and
 * confirmed; approval by a second member above the threshold; the roles that may and may not.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { loadSanctionsList } from "@/lib/screening/load-list";
import { describe, expect, test } from "vitest";
import { getAddress, parseAbi, parseEther, type Address, type Hex } from "viem";
import { GET as listPayouts, POST as postPayout } from "@/app/api/payouts/route";
import { GET as getPayout, PATCH as patchPayout } from "@/app/api/payouts/[id]/route";
import { POST as approve } from "@/app/api/payouts/[id]/approve/route";
import { POST as cancel } from "@/app/api/payouts/[id]/cancel/route";
import { POST as reportTransaction } from "@/app/api/payouts/[id]/transaction/route";
import { PUT as putSettings } from "@/app/api/payout-settings/route";
import { GET as listClaims, POST as postClaim } from "@/app/api/payout-claims/route";
import { GET as showClaim, POST as claimLink } from "@/app/api/payout-claims/[claimId]/claim/route";
import { GET as auditLog } from "@/app/api/audit-log/route";
import { POST as createEndpoint } from "@/app/api/webhook-endpoints/route";
import { and, asc, eq } from "drizzle-orm";
import { webhookDeliveries } from "@/lib/db/schema";
import { parse } from "csv-parse/sync";
import { signInAs } from "../dashboard/session";
import { devnetContracts } from "@/lib/chains/catalog";
import { chainClient } from "@/lib/chains/clients";
import { revertingReceiverArtifact } from "@/lib/chains/contract-artifacts";
import { devnetAccounts } from "@/lib/chains/devnet";
import { settlePayouts } from "@/lib/payouts/settle-payouts";
import { setupTestDatabase } from "../helpers/db";
import { setupTestDevnet } from "../helpers/devnet";
import { expectMatchesSchema } from "../helpers/openapi";
import { createApiKeyFor, createMerchant, createOrder, createWallet, randomAddress, type TestMerchant } from "../helpers/factories";
import { addMember, invitationTokenFromOutbox } from "../helpers/members";
import { call } from "../helpers/request";

const { GET: exportMovements } = await import("@/app/(dashboard)/dashboard/transactions/export/route");
const { createPayoutAction, approvePayoutAction } = await import("@/app/(dashboard)/dashboard/payouts/actions");

const testDb = setupTestDatabase();
const net = setupTestDevnet();

const base = () => net.chain("base");
const client = () => chainClient(base());
const settle = () => settlePayouts(testDb.db, base(), client());
const erc20 = parseAbi(["function balanceOf(address) view returns (uint256)", "function mint(address,uint256)"]);

/** The merchant's wallet that signs the batches: a devnet account whose key the test holds. */
const payer = devnetAccounts[7];

const create = (token: string, body: unknown) => call(postPayout, "POST", "/api/payouts/", { token, body });
const show = (token: string, id: number) => call(getPayout, "GET", `/api/payouts/${id}/`, { token, params: { id: String(id) } });
const report = (token: string, id: number, txHash: string) =>
  call(reportTransaction, "POST", `/api/payouts/${id}/transaction/`, { token, params: { id: String(id) }, body: { tx_hash: txHash } });
const approveAs = (token: string, id: number) => call(approve, "POST", `/api/payouts/${id}/approve/`, { token, params: { id: String(id) } });

async function merchantWithWallet() {
  const merchant = await createMerchant();
  await createWallet(merchant, { blockchain: 2, wallet_address: randomAddress(), confirmation_threshold: 2 });
  return merchant;
}

/** Signs and sends what the API built, from the payer's wallet; returns the batch transaction's hash. */
async function signAndSend(batch: {
  allowance_transaction: { to: string; data: string } | null;
  transaction: { to: string; data: string; value: string };
}): Promise<Hex> {
  const wallet = net.wallet(payer.privateKey as Hex);
  if (batch.allowance_transaction) {
    const hash = await wallet.sendTransaction({ to: batch.allowance_transaction.to as Address, data: batch.allowance_transaction.data as Hex });
    await client().waitForTransactionReceipt({ hash, pollingInterval: 50 });
  }
  return wallet.sendTransaction({ to: batch.transaction.to as Address, data: batch.transaction.data as Hex, value: BigInt(batch.transaction.value) });
}

const members = async (owner: TestMerchant) => ({
  admin: await addMember(owner, "admin", (email) => invitationTokenFromOutbox(testDb.db, email)),
  developer: await addMember(owner, "developer", (email) => invitationTokenFromOutbox(testDb.db, email)),
  viewer: await addMember(owner, "viewer", (email) => invitationTokenFromOutbox(testDb.db, email)),
});

describe("payouts", () => {
  test("POST /api/payouts/ a 50-leg USDC batch pays all 50 in one transaction, settled from its receipt and confirmed", async () => {
    const merchant = await merchantWithWallet();
    await net
      .wallet(payer.privateKey as Hex)
      .writeContract({ address: devnetContracts.USDC, abi: erc20, functionName: "mint", args: [payer.address as Address, 2_000_000_000n] });
    const recipients = Array.from({ length: 50 }, () => randomAddress());
    const created = await create(merchant.access, {
      blockchain: "base",
      currency: "USDC",
      legs: recipients.map((address, i) => ({ address, amount: `${i + 1}.5`, reference: `INV-${i}` })),
      note: "affiliates, March",
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expectMatchesSchema("POST /api/payouts", 201, created.body);
    const batch = created.body.data;
    expect(batch).toMatchObject({ status: "draft", currency: "USDC", leg_count: 50, total: "1300", approval_required: false, created_by: merchant.username });
    expect(batch.legs[49]).toMatchObject({ position: 49, address: recipients[49], amount: "50.5", reference: "INV-49", status: "pending" });
    expect(batch.usd_value).toBe("1299.74"); // 1300 USDC at the devnet's USDC/USD 0.9998
    expect(batch.allowance_transaction).toMatchObject({ to: devnetContracts.USDC, value: "0", chainId: base().chainId });
    expect(batch.transaction).toMatchObject({ to: batch.contract_address, value: "0", chainId: base().chainId });

    const hash = await signAndSend(batch);
    const sent = await report(merchant.access, batch.id, hash);
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.data).toMatchObject({ status: "sent", transaction_hash: hash.toLowerCase() });

    await client().waitForTransactionReceipt({ hash, pollingInterval: 50 });
    expect(await settle()).toMatchObject({ mined: 1, confirmed: 0 });
    const mined = (await show(merchant.access, batch.id)).body.data;
    expect(mined).toMatchObject({ status: "sent", from_address: payer.address, block_number: expect.any(Number) });
    expect(mined.legs.filter((leg: { status: string }) => leg.status !== "paid")).toEqual([]);

    await net.testClient().mine({ blocks: 1 });
    expect(await settle()).toMatchObject({ confirmed: 1 });
    const done = await show(merchant.access, batch.id);
    expectMatchesSchema("GET /api/payouts/[id]", 200, done.body);
    expect(done.body.data).toMatchObject({ status: "confirmed", confirmed_at: expect.any(String) });
    expect(done.body.data.legs.every((leg: { status: string }) => leg.status === "confirmed")).toBe(true);
    for (const [i, address] of recipients.entries()) {
      expect(await client().readContract({ address: devnetContracts.USDC, abi: erc20, functionName: "balanceOf", args: [address as Address] })).toBe(
        BigInt(i + 1) * 1_000_000n + 500_000n,
      );
    }
    // One transaction for the 50 legs.
    const receipt = await client().getTransactionReceipt({ hash });
    expect(receipt.logs.filter((entry) => entry.address.toLowerCase() === batch.contract_address.toLowerCase())).toHaveLength(50);

    // Settled batches are not signed again, nor edited.
    expect((await report(merchant.access, batch.id, hash)).status).toBe(409);
    const listed = await call(listPayouts, "GET", "/api/payouts/", { token: merchant.access });
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ count: 1, results: [expect.objectContaining({ id: batch.id, status: "confirmed" })] });
  });

  test("a leg to a contract that reverts fails alone: the other legs are paid and confirmed, its ETH goes back to the sender", async () => {
    const merchant = await merchantWithWallet();
    const deployer = net.wallet(devnetAccounts[6].privateKey as Hex);
    const deployHash = await deployer.deployContract({ abi: revertingReceiverArtifact.abi, bytecode: revertingReceiverArtifact.bytecode as Hex });
    const refusing = (await client().waitForTransactionReceipt({ hash: deployHash, pollingInterval: 50 })).contractAddress!;
    const [first, last] = [randomAddress(), randomAddress()];
    const endpoint = await call(createEndpoint, "POST", "/api/webhook-endpoints/", {
      token: merchant.access,
      body: { url: "http://127.0.0.1:9/payouts", events: ["payout.created", "payout.sent", "payout.confirmed", "payout.failed"] },
    });
    expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
    const created = await create(merchant.access, {
      blockchain: "base",
      currency: "ETH",
      legs: [
        { address: first, amount: "0.01" },
        { address: refusing, amount: "0.02" },
        { address: last, amount: "0.03" },
      ],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const batch = created.body.data;
    expect(batch.allowance_transaction).toBeNull();
    expect(batch.transaction.value).toBe(parseEther("0.06").toString());

    const hash = await signAndSend(batch);
    expect((await report(merchant.access, batch.id, hash)).status).toBe(200);
    const receipt = await client().waitForTransactionReceipt({ hash, pollingInterval: 50 });
    expect(receipt.status).toBe("success");
    await net.testClient().mine({ blocks: 1 });
    await settle();
    const done = (await show(merchant.access, batch.id)).body.data;
    expect(done.status).toBe("confirmed");
    expect(done.legs.map((leg: { status: string }) => leg.status)).toEqual(["confirmed", "failed", "confirmed"]);
    expect(done.legs[1].failure_reason).toMatch(/refused/);
    expect(await client().getBalance({ address: first as Address })).toBe(parseEther("0.01"));
    expect(await client().getBalance({ address: last as Address })).toBe(parseEther("0.03"));
    expect(await client().getBalance({ address: refusing })).toBe(0n);
    expect(await client().getBalance({ address: batch.contract_address })).toBe(0n);

    // payout.created, payout.sent and payout.confirmed, each with the batch as GET showed it then.
    const queued = await testDb.db
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.merchantId, merchant.id), eq(webhookDeliveries.endpointId, endpoint.body.data.id)))
      .orderBy(asc(webhookDeliveries.id));
    expect(queued.map((d) => d.eventType)).toEqual(["payout.created", "payout.sent", "payout.confirmed"]);
    const bodies = queued.map((d) => JSON.parse(d.body));
    expect(bodies[0]).toMatchObject({ event: "payout.created", id: expect.stringMatching(/^evt_/), data: { id: batch.id, status: "draft" } });
    expect(bodies[0].sequence).toBeUndefined();
    expect(bodies[1].data).toMatchObject({ status: "sent", transaction_hash: hash.toLowerCase() });
    expect(bodies[2].data).toMatchObject({ status: "confirmed", legs: [{ status: "confirmed" }, { status: "failed" }, { status: "confirmed" }] });

    // The movements export: one row per leg, valued in USD at the rate the batch locked (ETH/USD 3412.57).
    signInAs(merchant);
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const url = new URL("http://localhost:3000/dashboard/transactions/export");
    url.searchParams.set("from", day(-1));
    url.searchParams.set("to", day(1));
    const exported = await exportMovements(new Request(url), undefined);
    expect(exported.status).toBe(200);
    const rows = (parse(await exported.text(), { columns: true }) as Record<string, string>[]).filter((row) => row.type === "payout");
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatchObject({
      direction: "out",
      status: "confirmed",
      currency: "ETH",
      amount: "0.01",
      fiat_currency: "USD",
      fiat_amount: "34.13",
      rate: "3412.57",
      tx_hash: hash.toLowerCase(),
      to_address: first,
    });
    expect(rows[1]).toMatchObject({ status: "failed", amount: "0.02", to_address: getAddress(refusing) });
    expect(JSON.parse(rows[2]!.order_info!)).toEqual({ payout_batch: batch.id, leg: 2, reference: null });

    // As a bank statement: the two paid legs as money out, named as payouts; the failed leg moved nothing and is not booked.
    url.searchParams.set("layout", "bank_statement");
    url.searchParams.set("currency", "USD");
    const statement = await exportMovements(new Request(url), undefined);
    expect(statement.status).toBe(200);
    const lines = (parse(await statement.text(), { columns: true }) as Record<string, string>[]).filter((line) => line.Description?.startsWith("Payout"));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ Amount: "-34.13", Reference: `payout ${batch.id}` });
    expect(lines[0]!.Description).toBe(`Payout 0.01 ETH to ${first} (batch ${batch.id}, leg 0), tx ${hash.toLowerCase()}`);
    expect(lines.map((line) => line.Description).join("\n")).not.toContain(getAddress(refusing));
    signInAs(null);
  });

  test("a batch transaction reorged away sends its legs back to pending until a transaction is mined again", async () => {
    const merchant = await merchantWithWallet();
    const recipient = randomAddress();
    const created = await create(merchant.access, { blockchain: "base", currency: "ETH", legs: [{ address: recipient, amount: "0.005" }] });
    const batch = created.body.data;
    const snapshot = await net.testClient().snapshot();
    const hash = await signAndSend(batch);
    expect((await report(merchant.access, batch.id, hash)).status).toBe(200);
    await client().waitForTransactionReceipt({ hash, pollingInterval: 50 });
    expect(await settle()).toMatchObject({ mined: 1 });
    expect((await show(merchant.access, batch.id)).body.data.legs[0].status).toBe("paid");

    // The block is replaced: the transaction is gone from the chain.
    await net.testClient().revert({ id: snapshot });
    await net.testClient().mine({ blocks: 3 });
    expect(await settle()).toMatchObject({ reopened: 1 });
    const reopened = (await show(merchant.access, batch.id)).body.data;
    expect(reopened).toMatchObject({ status: "sent", block_number: null, from_address: null });
    expect(reopened.legs[0]).toMatchObject({ status: "pending", failure_reason: null });
    // No receipt any more: the batch waits, nothing is confirmed on a guess.
    expect(await settle()).toMatchObject({ mined: 0, confirmed: 0, reopened: 0 });
    expect(await client().getBalance({ address: recipient as Address })).toBe(0n);
  });

  test("above the threshold a second member with the right role approves before the batch can be signed; a viewer can neither create nor approve", async () => {
    const owner = await merchantWithWallet();
    const team = await members(owner);
    expect((await call(putSettings, "PUT", "/api/payout-settings/", { token: team.developer.access, body: { approval_threshold_usd: "100" } })).status).toBe(
      403,
    );
    const set = await call(putSettings, "PUT", "/api/payout-settings/", { token: owner.access, body: { approval_threshold_usd: "100" } });
    expect(set.status, JSON.stringify(set.body)).toBe(200);

    const legs = [{ address: randomAddress(), amount: "150" }];
    const viewerTry = await create(team.viewer.access, { blockchain: "base", currency: "USDC", legs });
    expect(viewerTry.status).toBe(403);
    expect(viewerTry.body.error.code).toBe("INSUFFICIENT_PERMISSIONS");

    // Under the threshold: signable at once.
    const small = await create(team.developer.access, { blockchain: "base", currency: "USDC", legs: [{ address: randomAddress(), amount: "50" }] });
    expect(small.body.data).toMatchObject({ approval_required: false, transaction: expect.any(Object) });

    const big = await create(team.developer.access, { blockchain: "base", currency: "USDC", legs });
    expect(big.status).toBe(201);
    const id = big.body.data.id;
    expect(big.body.data).toMatchObject({ approval_required: true, transaction: null, allowance_transaction: null });
    const early = await report(team.developer.access, id, `0x${"ab".repeat(32)}`);
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe("PAYOUT_APPROVAL_REQUIRED");

    for (const [who, token] of [
      ["viewer", team.viewer.access],
      ["developer (its maker, and no wallet role)", team.developer.access],
      ["API key", (await createApiKeyFor(owner)).key],
    ] as const) {
      const refused = await approveAs(token, id);
      expect(refused.status, who).toBe(403);
    }
    // The owner may approve, but not a batch the owner made.
    const own = await create(owner.access, { blockchain: "base", currency: "USDC", legs });
    const self = await approveAs(owner.access, own.body.data.id);
    expect(self.status).toBe(403);
    expect(self.body.error.code).toBe("PAYOUT_APPROVAL_REFUSED");

    const approved = await approveAs(team.admin.access, id);
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expectMatchesSchema("POST /api/payouts/[id]/approve", 200, approved.body);
    expect(approved.body.data).toMatchObject({ status: "approved", approved_by: team.admin.username, transaction: expect.any(Object) });
    // Frozen once approved.
    const edit = await call(patchPayout, "PATCH", `/api/payouts/${id}/`, {
      token: team.developer.access,
      params: { id: String(id) },
      body: { legs: [{ address: randomAddress(), amount: "1" }] },
    });
    expect(edit.status).toBe(409);
    expect(edit.body.error.code).toBe("PAYOUT_NOT_EDITABLE");

    // Every step in the audit log.
    const audit = await call(auditLog, "GET", "/api/audit-log/", { token: owner.access, query: { page_size: "100" } });
    const actions = (audit.body.results as { action: string; target: string }[]).filter((e) => e.target === `payout:${id}`).map((e) => e.action);
    expect(actions.sort()).toEqual(["payout.approved", "payout.created"]);
  });

  test("POST /api/payouts/ with a CSV refuses bad rows one by one, and saves nothing", async () => {
    const merchant = await merchantWithWallet();
    const order = await createOrder(merchant, { blockchain: "base", amount: "10", currency: "USDC" });
    const good = randomAddress();
    const lower = randomAddress();
    // A checksummed address with one letter's case flipped: still hex, no longer its EIP-55 checksum.
    const checksummed = randomAddress();
    const letter = checksummed.slice(2).search(/[a-fA-F]/) + 2;
    const flipped = checksummed[letter]!;
    const badChecksum =
      checksummed.slice(0, letter) + (flipped === flipped.toUpperCase() ? flipped.toLowerCase() : flipped.toUpperCase()) + checksummed.slice(letter + 1);
    const csv = [
      "address,amount,token,reference",
      `${good},10,USDC,A-1`,
      `${lower.toLowerCase()},1,USDC,A-2`,
      `${badChecksum},2,USDC,A-3`,
      `${order.receiving_address},3,USDC,A-4`,
      `${randomAddress()},4,DOGE,A-5`,
      `${good},5,USDC,A-6`,
      `${randomAddress()},6,USDC,A-1`,
      `${randomAddress()},-1,USDC,A-8`,
    ].join("\n");
    const res = await create(merchant.access, { blockchain: "base", currency: "USDC", csv });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
    const details = res.body.error.details as Record<string, string[]>;
    expect(Object.keys(details).sort()).toEqual(["csv.4.address", "csv.5.address", "csv.6.token", "csv.7.address", "csv.8.reference", "csv.9.amount"]);
    expect(details["csv.4.address"]![0]).toMatch(/checksum/i);
    expect(details["csv.5.address"]![0]).toMatch(/deposit address/);
    expect(details["csv.6.token"]![0]).toMatch(/Unknown token 'DOGE'/);
    expect(details["csv.7.address"]![0]).toMatch(/Duplicate.*csv\.2/);
    expect(details["csv.8.reference"]![0]).toMatch(/Duplicate.*csv\.2/);
    expect(res.body.error.message).toMatch(/6 of 8 legs are refused/);
    expect((await call(listPayouts, "GET", "/api/payouts/", { token: merchant.access })).body.count).toBe(0);

    // The good rows alone are taken, amounts in USD converted at a locked rate.
    const ok = await create(merchant.access, {
      blockchain: "base",
      currency: "ETH",
      amount_currency: "USD",
      csv: `address,amount,reference\n${good},34.13,A-1\n${lower},10,A-2`,
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body.data).toMatchObject({ amount_currency: "USD", rate: "3412.57", usd_value: "44.13", rate_locked_at: expect.any(String) });
    expect(ok.body.data.legs[0]).toMatchObject({ fiat_amount: "34.13", address: good, reference: "A-1" });
    expect(ok.body.data.legs[0].amount).toMatch(/^0\.0100/);
  });

  test("the dashboard's form takes a pasted CSV through the same checks, naming each refused line; a viewer cannot approve there either", async () => {
    const owner = await merchantWithWallet();
    const team = await members(owner);
    signInAs(owner);
    const good = randomAddress();
    const refused = await createPayoutAction({ asset: "base:USDC", amount_currency: "token", csv: `address,amount\n${good},1\n${good},2` });
    expect(refused).toMatchObject({ ok: false, error: { code: "VALIDATION_ERROR", details: { "csv.3.address": [expect.stringMatching(/Duplicate/)] } } });
    expect(refused.ok ? "" : refused.error.message).toMatch(/line 3, address: Duplicate/);
    const made = await createPayoutAction({ asset: "base:USDC", amount_currency: "token", csv: `address,amount\n${good},1` });
    expect(made).toMatchObject({ ok: true, data: { id: expect.any(Number) } });
    signInAs({ id: team.viewer.id, username: team.viewer.username }, { accountId: owner.id, role: "viewer" });
    expect(await createPayoutAction({ asset: "base:USDC", amount_currency: "token", csv: `address,amount\n${good},1` })).toMatchObject({
      ok: false,
      error: { code: "INSUFFICIENT_PERMISSIONS" },
    });
    expect(await approvePayoutAction({ id: String(made.ok ? made.data.id : 0) })).toMatchObject({ ok: false, error: { code: "INSUFFICIENT_PERMISSIONS" } });
    signInAs(null);
  });

  test("a claim link is claimed once by its recipient and paid by the merchant's next batch", async () => {
    const merchant = await merchantWithWallet();
    const made = await call(postClaim, "POST", "/api/payout-claims/", {
      token: merchant.access,
      body: { blockchain: "base", currency: "ETH", amount: "0.004", reference: "bounty-7" },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expectMatchesSchema("POST /api/payout-claims", 201, made.body);
    const claimId = made.body.data.id as string;
    expect(made.body.data).toMatchObject({
      status: "open",
      amount: "0.004",
      claim_address: null,
      url: expect.stringContaining(`/api/payout-claims/${claimId}/claim/`),
    });
    const params = { claimId };
    const path = `/api/payout-claims/${claimId}/claim/`;
    expect((await call(showClaim, "GET", path, { params })).body.data).toMatchObject({ status: "open", currency: "ETH" });

    const order = await createOrder(merchant, { blockchain: "base", amount: "10", currency: "USDC" });
    const refused = await call(claimLink, "POST", path, { params, body: { address: order.receiving_address } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.address[0]).toMatch(/deposit address/);
    const recipient = randomAddress();
    const claimed = await call(claimLink, "POST", path, { params, body: { address: recipient } });
    expect(claimed.status, JSON.stringify(claimed.body)).toBe(200);
    expect(claimed.body.data).toMatchObject({ status: "claimed", claim_address: recipient });
    const again = await call(claimLink, "POST", path, { params, body: { address: randomAddress() } });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("PAYOUT_CLAIM_CLOSED");

    // The next batch pays it as one more leg.
    const other = randomAddress();
    const batch = (await create(merchant.access, { blockchain: "base", currency: "ETH", legs: [{ address: other, amount: "0.001" }], include_claims: true }))
      .body.data;
    expect(batch.legs).toEqual([
      expect.objectContaining({ address: other }),
      expect.objectContaining({ address: recipient, amount: "0.004", reference: "bounty-7" }),
    ]);
    // Not twice: a second batch finds no claim left to pay.
    const second = await create(merchant.access, { blockchain: "base", currency: "ETH", include_claims: true });
    expect(second.status).toBe(400);
    const hash = await signAndSend(batch);
    expect((await report(merchant.access, batch.id, hash)).status).toBe(200);
    await client().waitForTransactionReceipt({ hash, pollingInterval: 50 });
    await net.testClient().mine({ blocks: 1 });
    await settle();
    const listed = await call(listClaims, "GET", "/api/payout-claims/", { token: merchant.access });
    expect(listed.body.results).toEqual([expect.objectContaining({ id: claimId, status: "paid", batch_id: batch.id, paid_at: expect.any(String) })]);
    expect(await client().getBalance({ address: recipient as Address })).toBe(parseEther("0.004"));
  });

  test("drafts are edited and cancelled; another merchant's batch is 404", async () => {
    const merchant = await merchantWithWallet();
    const other = await merchantWithWallet();
    const created = await create(merchant.access, { blockchain: "base", currency: "USDC", legs: [{ address: randomAddress(), amount: "1" }] });
    const id = created.body.data.id;
    expect((await show(other.access, id)).status).toBe(404);
    const edited = await call(patchPayout, "PATCH", `/api/payouts/${id}/`, {
      token: merchant.access,
      params: { id: String(id) },
      body: {
        legs: [
          { address: randomAddress(), amount: "2" },
          { address: randomAddress(), amount: "3" },
        ],
        note: "two now",
      },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.data).toMatchObject({ leg_count: 2, total: "5", note: "two now" });
    const cancelled = await call(cancel, "POST", `/api/payouts/${id}/cancel/`, { token: merchant.access, params: { id: String(id) } });
    expect(cancelled.body.data.status).toBe("cancelled");
    expect((await call(cancel, "POST", `/api/payouts/${id}/cancel/`, { token: merchant.access, params: { id: String(id) } })).status).toBe(409);
    expect((await report(merchant.access, id, `0x${"cd".repeat(32)}`)).status).toBe(409);
  });

  test("a leg to an address on the sanctions list refuses the batch with SANCTIONED_ADDRESS, naming the leg; nothing is saved", async () => {
    await loadSanctionsList(testDb.db, readFileSync(path.join(__dirname, "../screening/fixtures/sdn-sample.xml"), "utf8"));
    const merchant = await merchantWithWallet();
    const listed = "0x00000000000000000000000000000000005eed02";
    const refused = await create(merchant.access, {
      blockchain: "base",
      currency: "USDC",
      legs: [
        { address: randomAddress(), amount: "1" },
        { address: listed, amount: "2" },
      ],
    });
    expect(refused.status, JSON.stringify(refused.body)).toBe(400);
    expect(refused.body.error).toMatchObject({ code: "SANCTIONED_ADDRESS", details: { "legs.1.address": [expect.stringContaining("sanctions list")] } });
    expect(Object.keys(refused.body.error.details)).toEqual(["legs.1.address"]);
    const list = await call(listPayouts, "GET", "/api/payouts/", { token: merchant.access });
    expect(list.body.results).toEqual([]);
  });
});
