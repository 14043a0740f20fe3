import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { Card } from "@/components/ui";
import { ActionForm, Field, SelectField } from "@/components/ui/action-form";
import { DataTable, type Column } from "@/components/ui/data-table";
import { formatDate } from "@/components/dashboard/format";
import { InviteMemberForm } from "@/components/dashboard/invite-member-form";
import { allRoles, roleAllows } from "@/lib/auth/roles";
import { getDb } from "@/lib/db/client";
import { requirePageMerchant } from "@/lib/dashboard/page-merchant";
import { listInvitations, listMembers, serializeInvitation } from "@/lib/members/members";
import { changeRoleAction, inviteMemberAction, removeMemberAction, revokeInvitationAction } from "./actions";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("dashboard.team"))("metaTitle") };
}

const roleOptions = allRoles.map((role) => ({ value: role, label: role }));

type MemberJson = Awaited<ReturnType<typeof listMembers>>[number];
type InvitationJson = ReturnType<typeof serializeInvitation>;

export default async function TeamPage() {
  const merchant = await requirePageMerchant();
  const t = await getTranslations("dashboard.team");
  const db = await getDb();
  const manages = roleAllows(merchant.role, "manage_members");
  const members = await listMembers(db, merchant.merchantId);
  const invitations = manages ? await listInvitations(db, merchant) : [];

  const memberColumns: Array<Column<MemberJson>> = [
    { header: t("username"), cell: (m) => (m.user_id === merchant.userId ? t("you", { name: m.username }) : m.username) },
    { header: t("email"), cell: "email" },
    { header: t("role"), cell: "role" },
    { header: t("joined"), cell: (m) => formatDate(m.created_at) },
    ...(manages
      ? [
          {
            header: t("actions"),
            hideHeader: true,
            cell: (m: MemberJson) => (
              <>
                <ActionForm
                  action={changeRoleAction}
                  hiddenFields={{ userId: m.user_id }}
                  submitLabel={t("changeRole")}
                  small
                  label={t("changeRoleLabel", { name: m.username })}
                >
                  <SelectField label={t("role")} name="role" options={roleOptions} defaultValue={m.role} />
                </ActionForm>
                <ActionForm
                  action={removeMemberAction}
                  hiddenFields={{ userId: m.user_id }}
                  submitLabel={t("remove")}
                  variant="danger"
                  small
                  label={t("removeLabel", { name: m.username })}
                  confirmText={t("removeConfirm", { name: m.username })}
                />
              </>
            ),
          } satisfies Column<MemberJson>,
        ]
      : []),
  ];

  const invitationColumns: Array<Column<InvitationJson>> = [
    { header: t("email"), cell: "email" },
    { header: t("role"), cell: "role" },
    { header: t("expires"), cell: (i) => formatDate(i.expires_at) },
    {
      header: t("actions"),
      hideHeader: true,
      cell: (i) => (
        <ActionForm
          action={revokeInvitationAction}
          hiddenFields={{ id: i.id }}
          submitLabel={t("revoke")}
          variant="danger"
          small
          label={t("revokeLabel", { email: i.email })}
        />
      ),
    },
  ];

  return (
    <>
      <h1>{t("heading")}</h1>
      <p>{t.rich("intro", { role: merchant.role, strong: (chunks) => <strong data-testid="my-role">{chunks}</strong> })}</p>
      <DataTable caption={t("members")} columns={memberColumns} rows={members} rowKey={(m) => m.user_id} empty={t("noMembers")} />
      {manages ? (
        <>
          <Card title={t("invite")}>
            <InviteMemberForm action={inviteMemberAction}>
              <Field label={t("email")} name="email" type="email" required />
              <SelectField
                label={t("role")}
                name="role"
                options={roleOptions.filter((o) => o.value !== "owner" || merchant.role === "owner")}
                defaultValue="developer"
              />
            </InviteMemberForm>
          </Card>
          <h2>{t("openInvitations")}</h2>
          <DataTable caption={t("openInvitations")} columns={invitationColumns} rows={invitations} rowKey={(i) => i.id} empty={t("noInvitations")} />
        </>
      ) : null}
    </>
  );
}
