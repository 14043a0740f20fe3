import { vi } from "vitest";
import type { SessionMerchant } from "@/lib/auth/next-auth";

/**
 * The dashboard's session, controlled by the test. next-auth reads the cookie through
 * `next/headers`, which needs a live request; everything after it (authedAction, the export
 * route, the use-cases, the database) runs for real. tests/helpers/setup.ts puts `sessionModuleMock`
 * in place of `@/lib/auth/next-auth` for every test file and signs out before each file; a file
 * that needs more of the module (its `signIn`) mocks it itself with `{ ...sessionModuleMock, … }`.
 */
export const session = { current: null as SessionMerchant | null };

export const sessionModuleMock = {
  getSessionMerchant: vi.fn(async () => session.current),
};

/** Signed in to the merchant's own account as its owner, or (`as`) to another account with a role. */
export function signInAs(merchant: { id: number; username: string } | null, as?: { accountId: number; role: SessionMerchant["role"] }): void {
  session.current = merchant ? { merchantId: as?.accountId ?? merchant.id, username: merchant.username, userId: merchant.id, role: as?.role ?? "owner" } : null;
}
