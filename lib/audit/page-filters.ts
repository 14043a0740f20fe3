import { auditFilterQuery, type AuditFilter } from "./schemas";

const dayMs = 24 * 60 * 60 * 1000;
const isDay = (s: string | undefined) => s !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`));

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
  const problems: string[] = [];
  const from = isDay(raw.from) ? raw.from : undefined;
  const to = isDay(raw.to) ? new Date(Date.parse(`${raw.to}T00:00:00Z`) + dayMs).toISOString() : undefined;
  if (raw.from && !from) problems.push("“From” is not a date.");
  if (raw.to && !to) problems.push("“To” is not a date.");
  const parsed = auditFilterQuery.safeParse({ action: raw.action, from, to });
  let filter: AuditFilter = {};
  if (parsed.success) filter = parsed.data;
  else problems.push(...parsed.error.issues.map((issue) => `${issue.path.join(".") || "filter"}: ${issue.message}`));
  return { raw, filter, page, problems };
}

/** The same filters as query parameters (links to other pages and to the CSV export). */
export function auditFilterSearch(raw: { action?: string; from?: string; to?: string }, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams(Object.entries({ ...raw, ...extra }).filter((entry): entry is [string, string] => entry[1] !== undefined));
  return params.toString();
}
