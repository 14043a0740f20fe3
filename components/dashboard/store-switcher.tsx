import { ActionForm, SelectField } from "@/components/ui/action-form";
import { switchAccountAction } from "@/app/(dashboard)/dashboard/team/actions";

/** For a login in several merchant accounts: which one the dashboard acts in. */
export function StoreSwitcher({ accounts, current }: { accounts: Array<{ id: number; shop_name: string; role: string }>; current: number }) {
  if (accounts.length < 2) return null;
  return (
    <ActionForm action={switchAccountAction} submitLabel="Switch" small label="Switch store" variant="secondary">
      <SelectField label="Store" name="account" options={accounts.map((a) => ({ value: String(a.id), label: `${a.shop_name} (${a.role})` }))} defaultValue={String(current)} />
    </ActionForm>
  );
}
