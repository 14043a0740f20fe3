import { desc, eq } from "drizzle-orm";
import { POST as invite } from "@/app/api/account/invitations/route";
import { POST as accept } from "@/app/api/auth/invitations/accept/route";
import { POST as login } from "@/app/api/auth/login/route";
import type { Role } from "@/lib/auth/roles";
import type { Db } from "@/lib/db/types";
import { mailOutbox } from "@/lib/db/schema";
import { uniqueName, type TestMerchant } from "./factories";
import { call } from "./request";

/** The invitation token from the last mail to `email` the outbox holds (no SMTP server in the test). */
export async function invitationTokenFromOutbox(db: Db, email: string): Promise<string> {
  const [mail] = await db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email)).orderBy(desc(mailOutbox.id)).limit(1);
  const match = mail ? /\/invite\?token=([A-Za-z0-9_-]+)/.exec(mail.text) : null;
  if (!match) throw new Error(`no invitation mail to ${email}`);
  return match[1]!;
}

export interface TestMember {
  id: number;
  username: string;
  password: string;
  email: string;
  /** Tokens acting in the inviting account. */
  access: string;
  refresh: string;
}

/**
 * A new login invited into `owner`'s account with `role` through the real routes (invite, accept
 * with a new login, log in with `account`). `token` reads the invitation's token (SMTP or outbox).
 */
export async function addMember(owner: Pick<TestMerchant, "id" | "access">, role: Role, token: (email: string) => Promise<string>): Promise<TestMember> {
  const username = uniqueName(role);
  const email = `${username}@example.com`;
  const password = "member horse battery";
  const invited = await call(invite, "POST", "/api/account/invitations/", { token: owner.access, body: { email, role } });
  if (invited.status !== 201) throw new Error(`invite failed: ${JSON.stringify(invited.body)}`);
  const accepted = await call(accept, "POST", "/api/auth/invitations/accept/", { body: { token: await token(email), username, password, create_login: true } });
  if (accepted.status !== 201) throw new Error(`accept failed: ${JSON.stringify(accepted.body)}`);
  const loggedIn = await call(login, "POST", "/api/auth/login/", { body: { username, password, account: owner.id } });
  if (loggedIn.status !== 200) throw new Error(`login failed: ${JSON.stringify(loggedIn.body)}`);
  return { id: accepted.body.data.user.id, username, password, email, access: loggedIn.body.access, refresh: loggedIn.body.refresh };
}
