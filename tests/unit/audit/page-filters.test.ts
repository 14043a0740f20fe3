import { describe, expect, test } from "vitest";
import { auditFilterProblemText, parseAuditPageFilters } from "@/lib/audit/page-filters";

describe("the audit log's filters from the URL", () => {
  test("whole UTC days, `to` included; nothing to report", () => {
    const parsed = parseAuditPageFilters({ action: "api_key.created", from: "2026-01-01", to: "2026-01-31", page: "2" });
    expect(parsed.problems).toEqual([]);
    expect(parsed.page).toBe(2);
    expect(parsed.filter).toEqual({ action: "api_key.created", from: new Date("2026-01-01T00:00:00Z"), to: new Date("2026-02-01T00:00:00Z") });
  });

  test("what does not parse comes back as codes (the page words them) and is left out of the filter", () => {
    expect(parseAuditPageFilters({ from: "yesterday", to: "2026-02-30x" })).toMatchObject({
      filter: {},
      problems: [
        { field: "from", reason: "notDate" },
        { field: "to", reason: "notDate" },
      ],
    });
    expect(parseAuditPageFilters({ from: "2026-02-01", to: "2026-01-01" }).problems).toEqual([{ field: "to", reason: "notAfterFrom" }]);
    // The same day as from and to is that whole day, not a problem.
    expect(parseAuditPageFilters({ from: "2026-02-01", to: "2026-02-01" }).problems).toEqual([]);
    const unknown = parseAuditPageFilters({ action: "nothing.like_this", from: "2026-01-01" });
    expect(unknown.problems).toEqual([{ field: "action", reason: "unknown" }]);
    expect(unknown.filter).toEqual({});
  });

  test("the CSV export's 400 says them in English, as the API does", () => {
    expect(auditFilterProblemText({ field: "from", reason: "notDate" })).toBe("“From” is not a date.");
    expect(auditFilterProblemText({ field: "to", reason: "notDate" })).toBe("“To” is not a date.");
    expect(auditFilterProblemText({ field: "to", reason: "notAfterFrom" })).toBe("“To” must not be before “From”.");
    expect(auditFilterProblemText({ field: "action", reason: "unknown" })).toBe("“Action” is not a known action.");
  });
});
