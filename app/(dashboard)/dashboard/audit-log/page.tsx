import type { Metadata } from "next";
import { Card } from "@/components/ui";
import { DataTable, type Column } from "@/components/ui/data-table";
import { FilterForm, FilterInput, FilterSelect } from "@/components/ui/filter-form";
import { Pager } from "@/components/ui/pager";
import { formatDate } from "@/components/dashboard/format";
import { auditActions } from "@/lib/audit/actions";
import { auditFilterSearch, parseAuditPageFilters } from "@/lib/audit/page-filters";
import { listAuditEntries } from "@/lib/audit/queries";
import { serializeAuditEntry } from "@/lib/audit/record";
import { requirePageMerchant } from "@/lib/dashboard/page-merchant";
import { roleAllows } from "@/lib/auth/roles";
import { getDb } from "@/lib/db/client";

export const metadata: Metadata = { title: "Audit log · Dashboard" };

const pageSize = 50;
type Entry = ReturnType<typeof serializeAuditEntry>;

const actorKinds: Record<Entry["actor"]["kind"], string> = {
  session: "dashboard",
  access_token: "API login",
  api_key: "API key",
  public: "signed out",
  system: "system",
};

function changes(entry: Entry): string {
  const keys = new Set([...Object.keys(entry.before ?? {}), ...Object.keys(entry.after ?? {})]);
  const show = (value: unknown) => (value === undefined ? "—" : JSON.stringify(value));
  return [...keys]
    .map((key) => {
      const before = entry.before?.[key];
      const after = entry.after?.[key];
      if (entry.before && entry.after) return JSON.stringify(before) === JSON.stringify(after) ? null : `${key}: ${show(before)} → ${show(after)}`;
      return `${key}: ${show(entry.after ? after : before)}`;
    })
    .filter((line): line is string => line !== null)
    .join("; ");
}

const columns: Array<Column<Entry>> = [
  { header: "When", cell: (e) => formatDate(e.created_at) },
  { header: "What", cell: (e) => <span title={e.action}>{auditActions[e.action as keyof typeof auditActions] ?? e.action}</span> },
  { header: "Who", cell: (e) => `${e.actor.name ?? "—"} (${actorKinds[e.actor.kind] ?? e.actor.kind})` },
  { header: "Address", cell: (e) => e.client_ip ?? "—", mono: true },
  { header: "Target", cell: (e) => e.target ?? "—", mono: true },
  { header: "Change", cell: (e) => changes(e) || "—" },
];

export default async function AuditLogPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const merchant = await requirePageMerchant();
  if (!roleAllows(merchant.role, "manage_account")) {
    return (
      <>
        <h1>Audit log</h1>
        <p role="alert">Only the account&apos;s owners and admins can read its audit log. Ask one of them if you need an entry.</p>
      </>
    );
  }
  const { raw, filter, page, problems } = parseAuditPageFilters(await searchParams);
  const { rows, count } = await listAuditEntries(await getDb(), merchant.merchantId, filter, { limit: pageSize, offset: (page - 1) * pageSize });
  return (
    <>
      <h1>Audit log</h1>
      <p>Every security-relevant change of this account: who made it, from which address, and what changed. Entries cannot be edited or deleted.</p>
      <FilterForm label="Filter the audit log" clearHref="/dashboard/audit-log">
        <FilterSelect label="Action" name="action" options={Object.entries(auditActions).map(([value, label]) => ({ value, label }))} value={raw.action} />
        <FilterInput label="From" name="from" type="date" value={raw.from} />
        <FilterInput label="To (inclusive)" name="to" type="date" value={raw.to} />
      </FilterForm>
      {problems.length > 0 ? <p role="alert">Filters not applied: {problems.join(" ")}</p> : null}
      <p aria-live="polite">
        {count} entr{count === 1 ? "y" : "ies"}
      </p>
      <DataTable
        caption="Audit log"
        columns={columns}
        rows={rows.map(serializeAuditEntry)}
        rowKey={(e) => e.id}
        rowData={(e) => ({ "data-action": e.action })}
        empty="No entries."
      />
      <Pager
        page={page}
        lastPage={Math.max(1, Math.ceil(count / pageSize))}
        href={(p) => `/dashboard/audit-log?${auditFilterSearch(raw, { page: String(p) })}`}
      />
      <Card title="Export CSV">
        <p>
          <a href={`/dashboard/audit-log/export?${auditFilterSearch(raw)}`} download>
            Download these entries as CSV
          </a>
        </p>
      </Card>
    </>
  );
}
