import { useTranslations } from "next-intl";
import type { InputHTMLAttributes, ReactNode } from "react";
import { Button, Card, LinkButton, PlainField, Row } from "./index";

/**
 * The filter form of a list page: a plain GET form (the filters live in the URL, so a filtered
 * list can be linked and reloaded) with "Apply filters", and "Clear" when `clearHref` is given.
 */
export function FilterForm({ label, clearHref, children }: { label: string; clearHref?: string; children: ReactNode }) {
  const t = useTranslations("dashboard.ui");
  const apply = <Button type="submit">{t("applyFilters")}</Button>;
  return (
    <Card>
      <form method="get" role="search" aria-label={label}>
        <Row>
          {children}
          {clearHref ? null : apply}
        </Row>
        {clearHref ? (
          <Row>
            {apply}
            <LinkButton href={clearHref}>{t("clear")}</LinkButton>
          </Row>
        ) : null}
      </form>
    </Card>
  );
}

/** A labelled select of a filter form: "Any" (no filter) first, then the options; starts at `value`. */
export function FilterSelect({
  label,
  name,
  options,
  value,
}: {
  label: string;
  name: string;
  options: ReadonlyArray<string | { value: string; label: string }>;
  value?: string;
}) {
  const t = useTranslations("dashboard.ui");
  return (
    <PlainField label={label} name={name}>
      <select id={`f-${name}`} name={name} defaultValue={value ?? ""}>
        <option value="">{t("any")}</option>
        {options.map((option) => {
          const { value: v, label: text } = typeof option === "string" ? { value: option, label: option } : option;
          return (
            <option key={v} value={v}>
              {text}
            </option>
          );
        })}
      </select>
    </PlainField>
  );
}

/**
 * A labelled input of a GET form, starting at `value` (the filter now applied). `id` (default:
 * `name`) keeps two inputs sending the same parameter apart; the input's id is `f-<id>`.
 */
export function FilterInput({
  label,
  name,
  id = name,
  value,
  ...input
}: { label: string; name: string; id?: string; value?: string } & Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "name" | "value" | "defaultValue">) {
  return (
    <PlainField label={label} name={id}>
      <input id={`f-${id}`} name={name} defaultValue={value ?? ""} {...input} />
    </PlainField>
  );
}
