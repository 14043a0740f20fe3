import { auditFilterQuery, type AuditFilter } from "./schemas";

const dayMs = 24 * 60 * 60 * 1000;
const isDay = (s: string | undefined) => s !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`));

/**
 * A filter that does not parse, as the page words it (messages › dashboard.auditLog.problems) and
 * as the CSV export's 400 says it in English (`auditFilterProblemText`).
 */
export type AuditFilterProblem = { field: "from" | "to"; reason: "notDate" } | { field: "to"; reason: "notAfterFrom" } | { field: "action"; reason: "unknown" };

/**
 * The dashboard's audit filters from the URL (`action`, `from`, `to` as whole UTC days, `to`
 * included) as the use-case's filter; what does not parse is reported and left out.
 */
export function parseAuditPageFilters(params: Record<string, string | string[] | undefined>) {
  const one = (name: string) => {
    const value = params[name];
    const text = Array.isArray(value) ? value[0] : value;
    return text && text.trim() !== "" ? text.trim() : undefined;
  };
  const raw = { action: one("action"), from: one("from"), to: one("to") };
  const pageText = one("page");
  const page = pageText && /^\d{1,6}$/.test(pageText) && Number(pageText) >= 1 ? Number(pageText) : 1;
  const problems: AuditFilterProblem[] = [];
  const from = isDay(raw.from) ? raw.from : undefined;
  const to = isDay(raw.to) ? new Date(Date.parse(`${raw.to}T00:00:00Z`) + dayMs).toISOString() : undefined;
  if (raw.from && !from) problems.push({ field: "from", reason: "notDate" });
  if (raw.to && !to) problems.push({ field: "to", reason: "notDate" });
  const parsed = auditFilterQuery.safeParse({ action: raw.action, from, to });
  let filter: AuditFilter = {};
  if (parsed.success) filter = parsed.data;
  else {
    // Only two checks are left once the days parsed: the action's name, and `to` after `from`.
    const fields = new Set(parsed.error.issues.map((issue) => issue.path[0]));
    if (fields.has("action")) problems.push({ field: "action", reason: "unknown" });
    if (fields.has("to") || fields.has("from")) problems.push({ field: "to", reason: "notAfterFrom" });
  }
  return { raw, filter, page, problems };
}

/** A filter problem in English (the CSV export's 400, like the API's messages). */
export function auditFilterProblemText(problem: AuditFilterProblem): string {
  if (problem.reason === "notDate") return problem.field === "from" ? "“From” is not a date." : "“To” is not a date.";
  if (problem.reason === "notAfterFrom") return "“To” must not be before “From”.";
  return "“Action” is not a known action.";
}

/** The same filters as query parameters (links to other pages and to the CSV export). */
export function auditFilterSearch(raw: { action?: string; from?: string; to?: string }, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams(Object.entries({ ...raw, ...extra }).filter((entry): entry is [string, string] => entry[1] !== undefined));
  return params.toString();
}
