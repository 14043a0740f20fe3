import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { Card } from "@/components/ui";
import { DataTable, type Column } from "@/components/ui/data-table";
import { FilterForm, FilterInput, FilterSelect } from "@/components/ui/filter-form";
import { Pager } from "@/components/ui/pager";
import { formatDate } from "@/components/dashboard/format";
import { auditActionNames, type AuditAction } from "@/lib/audit/actions";
import { auditFilterSearch, parseAuditPageFilters } from "@/lib/audit/page-filters";
import { listAuditEntries } from "@/lib/audit/queries";
import { serializeAuditEntry } from "@/lib/audit/record";
import { requirePageMerchant } from "@/lib/dashboard/page-merchant";
import { roleAllows } from "@/lib/auth/roles";
import { getDb } from "@/lib/db/client";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("dashboard.auditLog"))("metaTitle") };
}

type T = Awaited<ReturnType<typeof getTranslations<"dashboard.auditLog">>>;

const pageSize = 50;
type Entry = ReturnType<typeof serializeAuditEntry>;

const actorKinds: ReadonlyArray<Entry["actor"]["kind"]> = ["session", "access_token", "api_key", "public", "system"];
const actorKind = (t: T, kind: string) => (actorKinds.includes(kind as Entry["actor"]["kind"]) ? t(`actors.${kind as Entry["actor"]["kind"]}`) : kind);
const actionName = (t: T, action: string) => ((auditActionNames as string[]).includes(action) ? t(`actions.${action as AuditAction}`) : action);

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

const columns = (t: T): Array<Column<Entry>> => [
  { header: t("when"), cell: (e) => formatDate(e.created_at) },
  { header: t("what"), cell: (e) => <span title={e.action}>{actionName(t, e.action)}</span> },
  { header: t("who"), cell: (e) => `${e.actor.name ?? "—"} (${actorKind(t, e.actor.kind)})` },
  { header: t("address"), cell: (e) => e.client_ip ?? "—", mono: true },
  { header: t("target"), cell: (e) => e.target ?? "—", mono: true },
  { header: t("change"), cell: (e) => changes(e) || "—" },
];

export default async function AuditLogPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const merchant = await requirePageMerchant();
  const t = await getTranslations("dashboard.auditLog");
  if (!roleAllows(merchant.role, "manage_account")) {
    return (
      <>
        <h1>{t("heading")}</h1>
        <p role="alert">{t("noRole")}</p>
      </>
    );
  }
  const { raw, filter, page, problems } = parseAuditPageFilters(await searchParams);
  const { rows, count } = await listAuditEntries(await getDb(), merchant.merchantId, filter, { limit: pageSize, offset: (page - 1) * pageSize });
  return (
    <>
      <h1>{t("heading")}</h1>
      <p>{t("intro")}</p>
      <FilterForm label={t("filter")} clearHref="/dashboard/audit-log">
        <FilterSelect
          label={t("action")}
          name="action"
          options={auditActionNames.map((value) => ({ value, label: actionName(t, value) }))}
          value={raw.action}
        />
        <FilterInput label={t("from")} name="from" type="date" value={raw.from} />
        <FilterInput label={t("to")} name="to" type="date" value={raw.to} />
      </FilterForm>
      {problems.length > 0 ? (
        <p role="alert">{t("notApplied", { problems: problems.map((p) => t(`problems.${p.field}.${p.reason}` as "problems.from.notDate")).join(" ") })}</p>
      ) : null}
      <p aria-live="polite">{t("count", { count })}</p>
      <DataTable
        caption={t("heading")}
        columns={columns(t)}
        rows={rows.map(serializeAuditEntry)}
        rowKey={(e) => e.id}
        rowData={(e) => ({ "data-action": e.action })}
        empty={t("empty")}
      />
      <Pager
        page={page}
        lastPage={Math.max(1, Math.ceil(count / pageSize))}
        href={(p) => `/dashboard/audit-log?${auditFilterSearch(raw, { page: String(p) })}`}
      />
      <Card title={t("export")}>
        <p>
          <a href={`/dashboard/audit-log/export?${auditFilterSearch(raw)}`} download>
            {t("download")}
          </a>
        </p>
      </Card>
    </>
  );
}
