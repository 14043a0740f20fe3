import Link from "next/link";
import type { Metadata } from "next";
import { Badge, Card, DescriptionList, uiStyles } from "@/components/ui";
import { ActionForm, CheckboxGroup, Field } from "@/components/ui/action-form";
import { Checkbox } from "@/components/ui/checkbox";
import { CopyButton } from "@/components/ui/copy-button";
import { formatDate } from "@/components/dashboard/format";
import { SecretReveal } from "@/components/dashboard/secret-reveal";
import { WebhookTestForm } from "@/components/dashboard/webhook-test-form";
import { getDb } from "@/lib/db/client";
import { requirePageMerchant } from "@/lib/dashboard/page-merchant";
import { roleAllows } from "@/lib/auth/roles";
import { hasEnabledSecondFactor } from "@/lib/auth/second-factor";
import { isSandbox } from "@/lib/env";
import { inboxUrl } from "@/lib/webhooks/inbox-url";
import { checkOrigin } from "@/lib/dashboard/request-origin";
import { headers } from "next/headers";
import { accountSecretsByIds } from "@/lib/auth/queries";
import { listEndpoints, listInboxMessages } from "@/lib/webhooks/queries";
import { orderEventTypes, webhookEventTypes } from "@/lib/webhooks/schemas";
import { createEndpointAction, deleteEndpointAction, revealSecretAction, rotateSecretAction, sendTestAction, updateEndpointAction } from "./actions";

export const metadata: Metadata = { title: "Webhooks · Dashboard" };

export default async function WebhooksPage() {
  const merchant = await requirePageMerchant();
  if (!roleAllows(merchant.role, "manage_webhooks")) {
    return (
      <>
        <h1>Webhooks</h1>
        <p>Your role in this account ({merchant.role}) does not include webhook endpoints. Ask an owner or admin.</p>
      </>
    );
  }
  const db = await getDb();
  const twoFactor = await hasEnabledSecondFactor(db, merchant.userId);

  // Sandbox URLs this server calls itself point where it is reached now, whatever APP_URL says.
  const { origin } = checkOrigin(await headers());
  const [{ rows: endpoints }, [account], inbox] = await Promise.all([
    listEndpoints(db, merchant.merchantId, { limit: 100, offset: 0 }),
    accountSecretsByIds(db, [merchant.merchantId]),
    isSandbox ? listInboxMessages(db, merchant.merchantId, { limit: 20, offset: 0 }) : Promise.resolve({ rows: [], count: 0 }),
  ]);
  const capture = account ? inboxUrl(account.inboxToken, origin) : null;

  return (
    <>
      <h1>Webhooks</h1>
      <p>Each endpoint receives signed POSTs (Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature) for the events it subscribes to.</p>

      {endpoints.map((e) => (
        <Card key={e.id} title={e.url} headingLevel={3}>
          <div data-endpoint-id={e.id}>
            <DescriptionList
              items={[
                ["Events", e.events.length === 0 ? "all" : e.events.join(", ")],
                [
                  "State",
                  <Badge key="s" status={e.isActive ? "active" : "failed"}>
                    {e.isActive ? "active" : "disabled"}
                  </Badge>,
                ],
                ["Disabled because", e.disabledReason],
                ["Description", e.description],
                ["Created", formatDate(e.createdAt)],
              ]}
            />
            <h4>Signing secret</h4>
            <SecretReveal id={String(e.id)} reveal={revealSecretAction} rotate={rotateSecretAction} />
            <p>
              <Link href={`/dashboard/webhooks/${e.id}`}>Delivery log</Link>
            </p>
            <details>
              <summary>Send a test event</summary>
              <WebhookTestForm action={sendTestAction} endpointId={e.id} url={e.url} events={orderEventTypes} />
            </details>
            <details>
              <summary>Edit</summary>
              <ActionForm
                action={updateEndpointAction}
                hiddenFields={{ id: e.id }}
                submitLabel="Save endpoint"
                successMessage="Endpoint saved."
                resetOnSuccess={false}
                label={`Edit ${e.url}`}
              >
                <Field label="URL" name="url" type="url" defaultValue={e.url} required />
                <CheckboxGroup legend="Events (none checked: all)" name="events" options={webhookEventTypes} defaultChecked={e.events} />
                <Field label="Description" name="description" defaultValue={e.description ?? ""} />
                <Checkbox name="is_active" defaultChecked={e.isActive} label="Active" />
              </ActionForm>
            </details>
            <div style={{ marginTop: "0.5rem" }}>
              <ActionForm
                action={deleteEndpointAction}
                hiddenFields={{ id: e.id }}
                submitLabel="Delete endpoint"
                variant="danger"
                small
                confirmText={`Delete ${e.url} and its delivery log?`}
                label={`Delete ${e.url}`}
              />
            </div>
          </div>
        </Card>
      ))}

      <Card title="Add an endpoint">
        <ActionForm action={createEndpointAction} submitLabel="Add endpoint" successMessage="Endpoint added." label="Add an endpoint">
          <Field
            label="URL"
            name="url"
            type="url"
            required
            placeholder="https://example.com/webhooks"
            hint={isSandbox ? "In the sandbox you can use your inbox URL below." : "https only; must resolve to a public address."}
          />
          <CheckboxGroup legend="Events (none checked: all)" name="events" options={webhookEventTypes} />
          <Field label="Description" name="description" />
          {twoFactor ? (
            <Field
              label="Authentication code"
              name="code"
              autoComplete="one-time-code"
              required
              maxLength={64}
              hint="From your authenticator app, or a recovery code."
            />
          ) : null}
        </ActionForm>
      </Card>

      {isSandbox && capture ? (
        <Card title="Sandbox inbox">
          <p>
            Point an endpoint (or an order&apos;s webhook_url) here to see deliveries without a server of your own. Signatures are checked against your secrets.
          </p>
          <p>
            <code data-testid="inbox-url">{capture}</code> <CopyButton text={capture} label="Copy inbox URL" />
          </p>
          {inbox.rows.length === 0 ? (
            <p>Nothing received yet.</p>
          ) : (
            <ul style={{ listStyle: "none", padding: 0 }} aria-label="Inbox messages">
              {inbox.rows.map((m) => {
                const body = (() => {
                  try {
                    return JSON.parse(m.body) as { type?: string };
                  } catch {
                    return {};
                  }
                })();
                return (
                  <li key={m.id} data-inbox-id={m.id} style={{ borderBottom: "1px solid var(--border)", padding: "0.5rem 0" }}>
                    <Badge status={m.signatureValid ? "ok" : "invalid"}>{m.signatureValid ? "signature valid" : "signature invalid"}</Badge>{" "}
                    <strong>{body.type ?? m.method}</strong> · {formatDate(m.receivedAt)}
                    <details>
                      <summary>Headers, body and signature check</summary>
                      <pre>{JSON.stringify(m.headers, null, 2)}</pre>
                      <pre>{m.body}</pre>
                      <pre>{JSON.stringify(m.signatureDetails, null, 2)}</pre>
                    </details>
                  </li>
                );
              })}
            </ul>
          )}
          <p className={uiStyles.hint}>Newest 20 shown.</p>
        </Card>
      ) : null}
    </>
  );
}
