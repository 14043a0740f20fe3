import "server-only";
import { uniqueViolation } from "@/lib/db/errors";
import type { Db } from "@/lib/db/types";
import { newId } from "@/lib/ids";
import { validationError, type FieldErrors } from "@/lib/http/errors";
import { sendVerificationEmail } from "@/lib/mail/account-emails";
import { markEmailVerified } from "@/lib/mail/queries";
import { insertMembership } from "@/lib/members/queries";
import { hashPassword } from "./passwords";
import { findTakenIdentity, insertMerchant } from "./queries";
import type { RegisterBody } from "./schemas";

const takenMessages = { username: "A user with that username already exists.", email: "A user with that email already exists." };

function takenError(taken: { username: boolean; email: boolean }) {
  const details: FieldErrors = {};
  if (taken.username) details.username = [takenMessages.username];
  if (taken.email) details.email = [takenMessages.email];
  return validationError(details);
}

/** `emailVerified`: the address was just proven (an emailed invitation accepted), no verification mail is sent. */
export async function registerMerchant(db: Db, input: RegisterBody, now = new Date(), options: { emailVerified?: boolean } = {}) {
  const taken = await findTakenIdentity(db, input.username, input.email);
  if (taken.username || taken.email) throw takenError(taken);

  const passwordHash = await hashPassword(input.password);
  const merchant = await insertNewMerchant(db, input, passwordHash, now);
  // The login owns the account it registered (issue 28: users, accounts and memberships).
  await insertMembership(db, { merchantId: merchant.id, userId: merchant.id, role: "owner", createdAt: now, updatedAt: now });
  if (options.emailVerified) return (await markEmailVerified(db, merchant.id, merchant.email, now)) ?? merchant;
  await sendVerificationEmail(db, merchant, now);
  return merchant;
}

async function insertNewMerchant(db: Db, input: RegisterBody, passwordHash: string, now: Date) {
  try {
    return await insertMerchant(db, {
      username: input.username,
      email: input.email,
      passwordHash,
      shopName: input.shop_name,
      webhookSecret: newId("webhookSecret"),
      inboxToken: newId("inbox"),
      createdAt: now,
      updatedAt: now,
    });
  } catch (error) {
    // Lost a race with a concurrent registration of the same name or email.
    if (uniqueViolation(error)) throw takenError(await findTakenIdentity(db, input.username, input.email));
    throw error;
  }
}
