import { defineRoute, pageAnswer } from "@/lib/http/define-route";
import { auditEntryJson, listAuditLogQuery } from "./schemas";

/** The audit log (issue 28 item 4). */
export const auditRoutes = {
  listAuditLog: defineRoute({
    method: "GET",
    path: "/api/audit-log",
    // The account's owners and admins (lib/auth/roles.ts), never an API key: the log shows who
    // signs in from where, which a payments backend has no need to read.
    access: "manage_account",
    query: listAuditLogQuery,
    doc: {
      summary: "List the audit log",
      description:
        "Every security-relevant change of the account, newest first: sign-ins and failed sign-ins, two-factor changes and recovery codes used, password resets, API keys, payout wallets, webhook endpoints and secrets, plan changes, revoked sessions. Each entry says who (`actor`), what (`action`, `target`), when, from which address, and the old and new values where they are safe to keep (never a secret). Filter by `action` and a `from`/`to` range. Entries cannot be changed or deleted. Owners and admins only: other roles and API keys get 403 INSUFFICIENT_PERMISSIONS.",
      tags: ["Account"],
      response: pageAnswer(auditEntryJson),
    },
  }),
};
