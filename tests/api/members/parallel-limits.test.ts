/** Issue 49 item 5: the members' limits hold when the requests come all at once (on PostgreSQL, over the pool's connections). */
import { describe, expect, test } from "vitest";
import { POST as invite } from "@/app/api/account/invitations/route";
import { POST as accept } from "@/app/api/auth/invitations/accept/route";
import { maxLoginFailures } from "@/lib/auth/login-throttle";
import { invitationsPerAccountPerHour } from "@/lib/members/members";
import { setupTestDatabase } from "../../helpers/db";
import { createMerchant, uniqueName } from "../../helpers/factories";
import { invitationTokenFromOutbox } from "../../helpers/members";
import { call, type CallResult } from "../../helpers/request";

const testDb = setupTestDatabase();

const parallel = 100;
let ipCounter = 0;
const freshIp = () => `10.149.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;

function tally(answers: CallResult[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const answer of answers) counts[answer.status] = (counts[answer.status] ?? 0) + 1;
  return counts;
}

describe("100 requests at once", () => {
  test("invitations: 20 an hour per account are sent, the rest are 429", async () => {
    const owner = await createMerchant();
    const answers = await Promise.all(
      Array.from({ length: parallel }, () =>
        call(invite, "POST", "/api/account/invitations/", { token: owner.access, body: { email: `${uniqueName("inv")}@example.com`, role: "viewer" } }),
      ),
    );
    expect(tally(answers)).toEqual({ 201: invitationsPerAccountPerHour, 429: parallel - invitationsPerAccountPerHour });
  });

  test("accepting with an existing login's password: 10 wrong ones are checked, the rest and then the right one are 429", async () => {
    const owner = await createMerchant();
    const other = await createMerchant();
    const email = `${uniqueName("inv")}@example.com`;
    expect((await call(invite, "POST", "/api/account/invitations/", { token: owner.access, body: { email, role: "viewer" } })).status).toBe(201);
    const token = await invitationTokenFromOutbox(testDb.db, email);
    const tryAccept = (password: string) =>
      call(accept, "POST", "/api/auth/invitations/accept/", { body: { token, username: other.username, password }, ip: freshIp() });
    const answers = await Promise.all(Array.from({ length: parallel }, (_, i) => tryAccept(`wrong-${i}`)));
    expect(tally(answers)).toEqual({ 401: maxLoginFailures, 429: parallel - maxLoginFailures });
    expect((await tryAccept(other.password)).status).toBe(429);
  });
});
