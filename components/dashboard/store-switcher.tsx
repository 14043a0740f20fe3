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
  if (accounts.length < 2) return null;
  return (
    <ActionForm action={switchAccount} submitLabel="Switch" small label="Switch store" variant="secondary">
      <SelectField
        label="Store"
        name="account"
        options={accounts.map((a) => ({ value: String(a.id), label: `${a.shop_name} (${a.role})` }))}
        defaultValue={String(current)}
      />
    </ActionForm>
  );
}
