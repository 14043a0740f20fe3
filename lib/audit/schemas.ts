import { z } from "zod";
import { pageQuery } from "@/lib/http/pagination";
import { timestamp } from "@/lib/http/schemas";
import { auditActionNames } from "./actions";

/** A moment: a full ISO date-time, or a YYYY-MM-DD date (its start, UTC). */
const moment = z
  .string()
  .trim()
  .refine((s) => /^\d{4}-\d{2}-\d{2}(T.+)?$/.test(s) && !Number.isNaN(Date.parse(s)), "Enter a date (YYYY-MM-DD) or an ISO 8601 date-time.")
  .transform((s) => new Date(/T/.test(s) ? s : `${s}T00:00:00Z`));

const auditFilterFields = {
  action: z
    .enum(auditActionNames, `Must be one of ${auditActionNames.join(", ")}.`)
    .optional()
    .describe("Only entries of this action, e.g. api_key.created"),
  from: moment.optional().describe("Entries at or after this moment (a YYYY-MM-DD date means its start, UTC)"),
  to: moment.optional().describe("Entries before this moment (a YYYY-MM-DD date means its start, UTC: give the day after to include a whole day)"),
};
const fromBeforeTo = (q: { from?: Date; to?: Date }) => !q.from || !q.to || q.to.getTime() > q.from.getTime();
const fromBeforeToIssue = { message: "`to` must be after `from`.", path: ["to"] };

/** The filters of the audit log, shared by the API, the dashboard page and the CSV export. */
export const auditFilterQuery = z.object(auditFilterFields).refine(fromBeforeTo, fromBeforeToIssue);
export type AuditFilter = z.output<typeof auditFilterQuery>;

export const listAuditLogQuery = pageQuery.extend(auditFilterFields).refine(fromBeforeTo, fromBeforeToIssue);

export const auditEntryJson = z.object({
  id: z.number().int(),
  action: z.string().describe("What happened, e.g. auth.login_succeeded, api_key.created, wallet.updated"),
  actor: z.object({
    kind: z
      .enum(["access_token", "api_key", "session", "public", "system"])
      .describe("How the change was made: an API login, an API key, the dashboard, a signed-out form (sign-in, password reset) or the gateway itself"),
    name: z.string().nullable().describe("The username, or the API key's name and prefix"),
  }),
  target: z.string().nullable().describe("What the change was about, e.g. api_key:12, wallet:3, webhook_endpoint:5"),
  client_ip: z.string().nullable().describe("The address the request came from"),
  before: z.record(z.string(), z.unknown()).nullable().describe("The values before the change, where safe to keep (never a secret)"),
  after: z.record(z.string(), z.unknown()).nullable().describe("The values after the change, where safe to keep (never a secret)"),
  created_at: timestamp,
});
