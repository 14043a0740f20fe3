import Link from "next/link";
import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { ActionForm, Field } from "@/components/ui/action-form";
import { Card } from "@/components/ui";
import { getDb } from "@/lib/db/client";
import { describeInvitation } from "@/lib/members/members";
import { acceptInvitationAction } from "./actions";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("dashboard.auth.invite"))("metaTitle") };
}
export const dynamic = "force-dynamic";

export default async function InvitePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { token, joined, role } = await searchParams;
  const t = await getTranslations("dashboard.auth.invite");
  if (typeof joined === "string" && joined !== "") {
    return (
      <Card>
        <h1>{t("joined", { shop: joined.slice(0, 100) })}</h1>
        <p role="status">{typeof role === "string" ? t("memberAs", { role: role.slice(0, 20) }) : t("member")}</p>
        <p>
          <Link href="/sign-in">{t("signIn")}</Link>
        </p>
      </Card>
    );
  }
  const invitation = typeof token === "string" && token !== "" && token.length <= 256 ? await describeInvitation(await getDb(), token) : null;
  if (!invitation || typeof token !== "string") {
    return (
      <Card>
        <h1>{t("heading")}</h1>
        <p>{t("invalid")}</p>
        <p>
          <Link href="/sign-in">{t("signIn")}</Link>
        </p>
      </Card>
    );
  }
  return (
    <Card>
      <h1>{t("join", { shop: invitation.shopName })}</h1>
      <p>{t.rich("invited", { role: invitation.role, email: invitation.email, strong: (chunks) => <strong>{chunks}</strong> })}</p>
      <h2>{t("haveLogin")}</h2>
      <ActionForm action={acceptInvitationAction} submitLabel={t("acceptExisting")} label={t("acceptExistingLabel")} hiddenFields={{ token }}>
        <Field label={t("username")} name="username" autoComplete="username" required />
        <Field label={t("password")} name="password" type="password" autoComplete="current-password" required />
        <Field label={t("code")} name="code" autoComplete="one-time-code" inputMode="numeric" hint={t("codeHint")} />
      </ActionForm>
      <h2>{t("createLogin")}</h2>
      <ActionForm action={acceptInvitationAction} submitLabel={t("acceptNew")} label={t("acceptNewLabel")} hiddenFields={{ token, create_login: "on" }}>
        <Field label={t("username")} name="username" autoComplete="username" required />
        <Field label={t("password")} name="password" type="password" autoComplete="new-password" required minLength={8} hint={t("passwordHint")} />
        <Field label={t("ownShop")} name="shop_name" hint={t("ownShopHint")} />
      </ActionForm>
      <p>
        <Link href="/sign-in">{t("signIn")}</Link>
      </p>
    </Card>
  );
}
