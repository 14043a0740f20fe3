/**
 * Issue 28 item 3: the members migration carries existing merchants over: on a database migrated up
 * to the one before it and holding merchants, each becomes the owner of its own account.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import postgres from "postgres";
import { describe, expect, test } from "vitest";
import { backend, createEmptyPostgresDatabase } from "../helpers/db";

const drizzleDir = path.resolve(__dirname, "../../drizzle");
const journal = JSON.parse(readFileSync(path.join(drizzleDir, "meta/_journal.json"), "utf8")) as { entries: Array<{ tag: string }> };
const statementsOf = (tag: string) =>
  readFileSync(path.join(drizzleDir, `${tag}.sql`), "utf8")
    .split("--> statement-breakpoint")
    .map((s) => s.trim())
    .filter(Boolean);

const membersIndex = journal.entries.findIndex((e) => e.tag.endsWith("_members"));

/** Runs SQL on this run's backend: an empty PostgreSQL database, or an in-memory PGlite. */
async function openRaw(): Promise<{ exec(sql: string): Promise<Array<Record<string, unknown>>>; close(): Promise<void> }> {
  if (backend === "postgres") {
    const empty = await createEmptyPostgresDatabase();
    const client = postgres(empty.url, { max: 1, onnotice: () => {} });
    return {
      exec: async (text) => [...(await client.unsafe(text))] as Array<Record<string, unknown>>,
      close: async () => {
        await client.end();
        await empty.drop();
      },
    };
  }
  // The migrations after it create pg_trgm (the search index).
  const pglite = new PGlite({ extensions: { pg_trgm } });
  return { exec: async (text) => (await pglite.query<Record<string, unknown>>(text)).rows, close: () => pglite.close() };
}

describe("the members migration", () => {
  test("every existing merchant becomes a login owning its own account, and nothing else", async () => {
    expect(membersIndex).toBeGreaterThan(0);
    const db = await openRaw();
    try {
      for (const entry of journal.entries.slice(0, membersIndex)) for (const statement of statementsOf(entry.tag)) await db.exec(statement);
      await db.exec(`insert into merchants (username, email, password_hash, shop_name, webhook_secret, inbox_token, created_at, updated_at) values
        ('alice', 'alice@example.com', 'x', 'Alice Shop', 'whsec_a', 'inbox_a', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z'),
        ('bob', 'bob@example.com', 'x', 'Bob Shop', 'whsec_b', 'inbox_b', '2026-02-01T00:00:00Z', '2026-02-01T00:00:00Z')`);
      for (const entry of journal.entries.slice(membersIndex)) for (const statement of statementsOf(entry.tag)) await db.exec(statement);

      const rows =
        await db.exec(`select m.username, ms.merchant_id = m.id as own, ms.user_id = m.id as self, ms.role, ms.created_at = m.created_at as since_created
        from memberships ms join merchants m on m.id = ms.merchant_id order by m.username`);
      expect(rows).toEqual([
        { username: "alice", own: true, self: true, role: "owner", since_created: true },
        { username: "bob", own: true, self: true, role: "owner", since_created: true },
      ]);
      expect(await db.exec(`select count(*)::int as n from invitations`)).toEqual([{ n: 0 }]);
    } finally {
      await db.close();
    }
  });
});
