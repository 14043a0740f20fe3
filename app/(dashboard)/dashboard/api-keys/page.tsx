import { requestTime } from "@/lib/dashboard/clock";
import type { Metadata } from "next";
import { Badge, Card } from "@/components/ui";
import { ActionForm } from "@/components/ui/action-form";
import { CreateApiKeyForm } from "@/components/dashboard/create-api-key-form";
import { formatDate } from "@/components/dashboard/format";
import { listApiKeys } from "@/lib/auth/queries";
import { permissionPresets } from "@/lib/auth/permissions";
import { getDb } from "@/lib/db/client";
import { requirePageMerchant } from "@/lib/dashboard/page-merchant";
import { createApiKeyAction, revokeApiKeyAction } from "./actions";

export const metadata: Metadata = { title: "API keys · Dashboard" };

const presetLabels: Record<keyof typeof permissionPresets, string> = {
  read_only: "Read only",
  create_payments: "Create payments (read + create_payments)",
  manage_webhooks: "Manage webhooks (read + manage_webhooks)",
  full_access: "Full access",
};

export default async function ApiKeysPage() {
  const merchant = await requirePageMerchant();
  const { rows } = await listApiKeys(await getDb(), merchant.merchantId, 100, 0);
  const now = requestTime().getTime();
  return (
    <>
      <h1>API keys</h1>
      <p>
        Your server sends a key as <code>Authorization: Bearer sk_…</code>. Keys cannot manage other keys or your account.
      </p>
      <Card title="Create a key">
        <CreateApiKeyForm action={createApiKeyAction} presets={Object.entries(presetLabels).map(([value, label]) => ({ value, label }))} />
      </Card>
      <h2>Your keys</h2>
      {rows.length === 0 ? (
        <p>No keys yet.</p>
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">API keys</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Prefix</th>
                <th scope="col">Permissions</th>
                <th scope="col">Last used</th>
                <th scope="col">Expires</th>
                <th scope="col">State</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((k) => {
                const expired = k.expiresAt !== null && k.expiresAt.getTime() <= now;
                const state = k.revokedAt ? "revoked" : expired ? "expired" : "active";
                return (
                  <tr key={k.id} data-key-prefix={k.prefix}>
                    <td>{k.name}</td>
                    <td>
                      <code>{k.prefix}…</code>
                    </td>
                    <td>{k.permissions.join(", ")}</td>
                    <td>{k.lastUsedAt ? formatDate(k.lastUsedAt) : "never"}</td>
                    <td>{k.expiresAt ? formatDate(k.expiresAt) : "never"}</td>
                    <td>
                      <Badge status={state} />
                    </td>
                    <td>
                      {k.revokedAt ? null : (
                        <ActionForm
                          action={revokeApiKeyAction}
                          submitLabel="Revoke"
                          variant="danger"
                          small
                          confirmText={`Revoke the key “${k.name}” (${k.prefix}…)? Requests using it will be refused at once. This cannot be undone.`}
                          label={`Revoke ${k.name}`}
                        >
                          <input type="hidden" name="id" value={String(k.id)} />
                        </ActionForm>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
