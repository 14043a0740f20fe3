import { useTranslations } from "next-intl";
import { ActionForm, SelectField } from "@/components/ui/action-form";
import type { ActionResult } from "@/lib/auth/authed-action";

/** For a login in several merchant accounts: which one the dashboard acts in (`switchAccount`: the page's action that switches). */
export function StoreSwitcher({
  accounts,
  current,
  switchAccount,
}: {
  accounts: Array<{ id: number; shop_name: string; role: string }>;
  current: number;
  switchAccount: (form: FormData) => Promise<ActionResult<unknown>>;
}) {
  const t = useTranslations("dashboard.shared.store");
  if (accounts.length < 2) return null;
  return (
    <ActionForm action={switchAccount} submitLabel={t("switch")} small label={t("label")} variant="secondary">
      <SelectField
        label={t("store")}
        name="account"
        options={accounts.map((a) => ({ value: String(a.id), label: `${a.shop_name} (${a.role})` }))}
        defaultValue={String(current)}
      />
    </ActionForm>
  );
}
