import type { Metadata } from "next";
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

export const metadata: Metadata = { title: "Team · Dashboard" };

const roleOptions = allRoles.map((role) => ({ value: role, label: role }));

type MemberJson = Awaited<ReturnType<typeof listMembers>>[number];
type InvitationJson = ReturnType<typeof serializeInvitation>;

export default async function TeamPage() {
  const merchant = await requirePageMerchant();
  const db = await getDb();
  const manages = roleAllows(merchant.role, "manage_members");
  const members = await listMembers(db, merchant.merchantId);
  const invitations = manages ? await listInvitations(db, merchant) : [];

  const memberColumns: Array<Column<MemberJson>> = [
    { header: "Username", cell: (m) => (m.user_id === merchant.userId ? `${m.username} (you)` : m.username) },
    { header: "Email", cell: "email" },
    { header: "Role", cell: "role" },
    { header: "Joined", cell: (m) => formatDate(m.created_at) },
    ...(manages
      ? [
          {
            header: "Actions",
            hideHeader: true,
            cell: (m: MemberJson) => (
              <>
                <ActionForm
                  action={changeRoleAction}
                  hiddenFields={{ userId: m.user_id }}
                  submitLabel="Change role"
                  small
                  label={`Change the role of ${m.username}`}
                >
                  <SelectField label="Role" name="role" options={roleOptions} defaultValue={m.role} />
                </ActionForm>
                <ActionForm
                  action={removeMemberAction}
                  hiddenFields={{ userId: m.user_id }}
                  submitLabel="Remove"
                  variant="danger"
                  small
                  label={`Remove ${m.username}`}
                  confirmText={`Remove ${m.username} from this account? Their sessions and tokens for it stop working.`}
                />
              </>
            ),
          } satisfies Column<MemberJson>,
        ]
      : []),
  ];

  const invitationColumns: Array<Column<InvitationJson>> = [
    { header: "Email", cell: "email" },
    { header: "Role", cell: "role" },
    { header: "Expires", cell: (i) => formatDate(i.expires_at) },
    {
      header: "Actions",
      hideHeader: true,
      cell: (i) => (
        <ActionForm
          action={revokeInvitationAction}
          hiddenFields={{ id: i.id }}
          submitLabel="Revoke"
          variant="danger"
          small
          label={`Revoke the invitation of ${i.email}`}
        />
      ),
    },
  ];

  return (
    <>
      <h1>Team</h1>
      <p>
        Your role here: <strong data-testid="my-role">{merchant.role}</strong>. Owners and admins manage members and payout wallets; developers manage API keys,
        webhooks and the sandbox; viewers only read.
      </p>
      <DataTable caption="Members" columns={memberColumns} rows={members} rowKey={(m) => m.user_id} empty="No members." />
      {manages ? (
        <>
          <Card title="Invite a member">
            <InviteMemberForm action={inviteMemberAction}>
              <Field label="Email" name="email" type="email" required />
              <SelectField
                label="Role"
                name="role"
                options={roleOptions.filter((o) => o.value !== "owner" || merchant.role === "owner")}
                defaultValue="developer"
              />
            </InviteMemberForm>
          </Card>
          <h2>Open invitations</h2>
          <DataTable caption="Open invitations" columns={invitationColumns} rows={invitations} rowKey={(i) => i.id} empty="No open invitations." />
        </>
      ) : null}
    </>
  );
}
