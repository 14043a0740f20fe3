import Link from "next/link";
import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { ActionForm } from "@/components/ui/action-form";
import { Card } from "@/components/ui";
import { verifyEmailAction } from "./actions";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("dashboard.auth.verify"))("metaTitle") };
}

// Opening the link shows a button rather than verifying at once: mail scanners that fetch links must not spend it.
export default async function VerifyEmailPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { token } = await searchParams;
  const t = await getTranslations("dashboard.auth.verify");
  return (
    <Card>
      <h1>{t("heading")}</h1>
      {typeof token === "string" && token !== "" ? (
        <ActionForm action={verifyEmailAction} submitLabel={t("submit")} label={t("label")} hiddenFields={{ token }} successMessage={t("confirmed")}>
          {null}
        </ActionForm>
      ) : (
        <p>{t("needLink")}</p>
      )}
      <p>
        <Link href="/dashboard">{t("dashboard")}</Link>
      </p>
    </Card>
  );
}
