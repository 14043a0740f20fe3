import Link from "next/link";
import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
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

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("dashboard.webhooks"))("metaTitle") };
}

export default async function WebhooksPage() {
  const merchant = await requirePageMerchant();
  const t = await getTranslations("dashboard.webhooks");
  if (!roleAllows(merchant.role, "manage_webhooks")) {
    return (
      <>
        <h1>{t("heading")}</h1>
        <p>{t("noRole", { role: merchant.role })}</p>
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
      <h1>{t("heading")}</h1>
      <p>{t("intro")}</p>

      {endpoints.map((e) => (
        <Card key={e.id} title={e.url} headingLevel={3}>
          <div data-endpoint-id={e.id}>
            <DescriptionList
              items={[
                [t("events"), e.events.length === 0 ? t("allEvents") : e.events.join(", ")],
                [
                  t("state"),
                  <Badge key="s" status={e.isActive ? "active" : "failed"}>
                    {e.isActive ? t("active") : t("disabled")}
                  </Badge>,
                ],
                [t("disabledBecause"), e.disabledReason],
                [t("description"), e.description],
                [t("created"), formatDate(e.createdAt)],
              ]}
            />
            <h4>{t("signingSecret")}</h4>
            <SecretReveal id={String(e.id)} reveal={revealSecretAction} rotate={rotateSecretAction} />
            <p>
              <Link href={`/dashboard/webhooks/${e.id}`}>{t("deliveryLog")}</Link>
            </p>
            <details>
              <summary>{t("sendTest")}</summary>
              <WebhookTestForm action={sendTestAction} endpointId={e.id} url={e.url} events={orderEventTypes} />
            </details>
            <details>
              <summary>{t("edit")}</summary>
              <ActionForm
                action={updateEndpointAction}
                hiddenFields={{ id: e.id }}
                submitLabel={t("save")}
                successMessage={t("saved")}
                resetOnSuccess={false}
                label={t("editLabel", { url: e.url })}
              >
                <Field label={t("url")} name="url" type="url" defaultValue={e.url} required />
                <CheckboxGroup legend={t("eventsLegend")} name="events" options={webhookEventTypes} defaultChecked={e.events} />
                <Field label={t("description")} name="description" defaultValue={e.description ?? ""} />
                <Checkbox name="is_active" defaultChecked={e.isActive} label={t("activeField")} />
              </ActionForm>
            </details>
            <div style={{ marginTop: "0.5rem" }}>
              <ActionForm
                action={deleteEndpointAction}
                hiddenFields={{ id: e.id }}
                submitLabel={t("delete")}
                variant="danger"
                small
                confirmText={t("deleteConfirm", { url: e.url })}
                label={t("deleteLabel", { url: e.url })}
              />
            </div>
          </div>
        </Card>
      ))}

      <Card title={t("add.title")}>
        <ActionForm action={createEndpointAction} submitLabel={t("add.submit")} successMessage={t("add.done")} label={t("add.title")}>
          <Field
            label={t("url")}
            name="url"
            type="url"
            required
            placeholder="https://example.com/webhooks"
            hint={isSandbox ? t("add.urlHintSandbox") : t("add.urlHintLive")}
          />
          <CheckboxGroup legend={t("eventsLegend")} name="events" options={webhookEventTypes} />
          <Field label={t("description")} name="description" />
          {twoFactor ? <Field label={t("add.code")} name="code" autoComplete="one-time-code" required maxLength={64} hint={t("add.codeHint")} /> : null}
        </ActionForm>
      </Card>

      {isSandbox && capture ? (
        <Card title={t("inbox.title")}>
          <p>{t("inbox.explain")}</p>
          <p>
            <code data-testid="inbox-url">{capture}</code> <CopyButton text={capture} label={t("inbox.copy")} />
          </p>
          {inbox.rows.length === 0 ? (
            <p>{t("inbox.empty")}</p>
          ) : (
            <ul style={{ listStyle: "none", padding: 0 }} aria-label={t("inbox.messages")}>
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
                    <Badge status={m.signatureValid ? "ok" : "invalid"}>{m.signatureValid ? t("inbox.signatureValid") : t("inbox.signatureInvalid")}</Badge>{" "}
                    <strong>{body.type ?? m.method}</strong> · {formatDate(m.receivedAt)}
                    <details>
                      <summary>{t("inbox.details")}</summary>
                      <pre>{JSON.stringify(m.headers, null, 2)}</pre>
                      <pre>{m.body}</pre>
                      <pre>{JSON.stringify(m.signatureDetails, null, 2)}</pre>
                    </details>
                  </li>
                );
              })}
            </ul>
          )}
          <p className={uiStyles.hint}>{t("inbox.newest")}</p>
        </Card>
      ) : null}
    </>
  );
}
