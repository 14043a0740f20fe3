/** Issue 28 item 3: every dashboard action checks the member's role, with the same use-cases as the API. */
import { beforeEach, describe, expect, test } from "vitest";
import { setupTestDatabase } from "../helpers/db";
import { createMerchant, randomAddress, type TestMerchant } from "../helpers/factories";
import { addMember, invitationTokenFromOutbox, type TestMember } from "../helpers/members";
import { signInAs } from "./session";

const { addWalletAction } = await import("@/app/(dashboard)/dashboard/wallets/actions");
const { createApiKeyAction } = await import("@/app/(dashboard)/dashboard/api-keys/actions");
const { rotateAccountSecretAction } = await import("@/app/(dashboard)/dashboard/settings/actions");
const { inviteMemberAction, changeRoleAction, removeMemberAction } = await import("@/app/(dashboard)/dashboard/team/actions");
const { createOrderAction } = await import("@/app/(dashboard)/dashboard/orders/actions");

const database = setupTestDatabase();

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.append(key, value);
  return data;
}

let owner: TestMerchant;
let developer: TestMember;
const outboxToken = (email: string) => invitationTokenFromOutbox(database.db, email);

beforeEach(async () => {
  owner ??= await createMerchant();
  developer ??= await addMember(owner, "developer", outboxToken);
});

const refused = { ok: false, error: expect.objectContaining({ code: "INSUFFICIENT_PERMISSIONS" }) };

describe("dashboard actions by role", () => {
  test("a viewer is refused every change: orders, wallets, keys, account secret, members", async () => {
    signInAs({ id: developer.id, username: developer.username }, { accountId: owner.id, role: "viewer" });
    expect(await createOrderAction(form({ amount: "1", currency: "USDC", blockchain: "base", order_info: "{}", nonce: "1" }))).toEqual(refused);
    expect(
      await addWalletAction(form({ blockchain: "2", wallet_address: randomAddress(), confirmation_threshold: "2", password: developer.password })),
    ).toEqual(refused);
    expect(await createApiKeyAction(form({ name: "k", preset: "read_only" }))).toEqual(refused);
    expect(await rotateAccountSecretAction({ id: "1" })).toEqual(refused);
    expect(await inviteMemberAction(form({ email: "a@example.com", role: "viewer" }))).toEqual(refused);
  });

  test("a developer creates API keys in the account it acts in, but cannot add payout wallets or invite", async () => {
    signInAs({ id: developer.id, username: developer.username }, { accountId: owner.id, role: "developer" });
    const key = await createApiKeyAction(form({ name: "ci", preset: "read_only" }));
    expect(key.ok).toBe(true);
    expect(
      await addWalletAction(form({ blockchain: "2", wallet_address: randomAddress(), confirmation_threshold: "2", password: developer.password })),
    ).toEqual(refused);
    expect(await inviteMemberAction(form({ email: "b@example.com", role: "viewer" }))).toEqual(refused);
  });

  test("an owner invites, changes roles and removes; the last owner is kept", async () => {
    signInAs(owner);
    const invited = await inviteMemberAction(form({ email: "c@example.com", role: "admin" }));
    expect(invited).toMatchObject({ ok: true, data: { email: "c@example.com", role: "admin" } });
    expect(await changeRoleAction(form({ userId: String(developer.id), role: "viewer" }))).toEqual({
      ok: true,
      data: { user_id: developer.id, role: "viewer" },
    });
    expect(await changeRoleAction(form({ userId: String(owner.id), role: "admin" }))).toEqual({
      ok: false,
      error: expect.objectContaining({ code: "CONFLICT" }),
    });
    expect(await removeMemberAction(form({ userId: String(owner.id) }))).toEqual({ ok: false, error: expect.objectContaining({ code: "CONFLICT" }) });
    expect(await removeMemberAction(form({ userId: String(developer.id) }))).toEqual({ ok: true, data: { user_id: developer.id } });
  });
});
