"use client";

import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import {
  createContext,
  startTransition,
  useActionState,
  useContext,
  useEffect,
  useId,
  useRef,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
} from "react";
import type { ActionResult } from "@/lib/auth/authed-action";
import { Checkbox } from "./checkbox";
import { Alert, Button } from "./index";
import styles from "./ui.module.css";

type AnyResult = ActionResult<unknown> | null;
type FormAction = (form: FormData) => Promise<ActionResult<unknown>>;

const ResultContext = createContext<AnyResult>(null);

/**
 * A form bound to a server action made with `authedAction`: shows the action's error (and each
 * field's messages next to the field), a success message, and refreshes the page's server data.
 */
export function ActionForm({
  action,
  submitLabel,
  successMessage,
  children,
  resetOnSuccess = true,
  variant = "primary",
  confirmText,
  label,
  small = false,
  showResult = false,
  hiddenFields,
  renderResult,
  onSuccess,
}: {
  action: FormAction;
  submitLabel: string;
  successMessage?: string;
  children?: ReactNode;
  resetOnSuccess?: boolean;
  variant?: "primary" | "secondary" | "danger";
  /** Asks before submitting (destructive actions). */
  confirmText?: string;
  /** Accessible name of the form. */
  label?: string;
  /** A compact button, for actions in lists. */
  small?: boolean;
  /** Shows the action's data as JSON after success (sandbox tools). */
  showResult?: boolean;
  /** Sent as hidden inputs, e.g. the id of the row a button acts on. */
  hiddenFields?: Record<string, string | number>;
  /** Shows the action's data after success in the page's own words (instead of successMessage). */
  renderResult?: (data: unknown) => ReactNode;
  /** Called once per successful submission with the action's data, instead of refreshing the page (it navigates or refreshes itself). */
  onSuccess?: (data: unknown) => void;
}) {
  const router = useRouter();
  const t = useTranslations("dashboard.ui");
  const formRef = useRef<HTMLFormElement>(null);
  const [result, run, pending] = useActionState<AnyResult, FormData>((_previous, form) => action(form), null);

  useEffect(() => {
    if (result?.ok) {
      if (resetOnSuccess) formRef.current?.reset();
      if (onSuccess) onSuccess(result.data);
      else router.refresh();
    }
    // onSuccess is left out on purpose: a new function each render must not run it again for the same result.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [result, resetOnSuccess, router]);

  return (
    <ResultContext.Provider value={result}>
      <form
        ref={formRef}
        aria-label={label}
        // Submitted by hand rather than with `action={run}`: React resets a form after its action,
        // which would throw away what the merchant typed when the action reports an error.
        onSubmit={(event) => {
          event.preventDefault();
          if (confirmText && !window.confirm(confirmText)) return;
          const form = new FormData(event.currentTarget);
          startTransition(() => run(form));
        }}
      >
        {hiddenFields ? Object.entries(hiddenFields).map(([name, value]) => <input key={name} type="hidden" name={name} value={String(value)} />) : null}
        {children}
        {result && !result.ok ? (
          <Alert kind="error">
            {result.error.message}
            {result.error.fix ? (
              <>
                {" "}
                <a href={result.error.fix.href}>{result.error.fix.label}</a>
              </>
            ) : null}
          </Alert>
        ) : null}
        {result?.ok && successMessage && !renderResult ? <Alert kind="ok">{successMessage}</Alert> : null}
        {result?.ok && renderResult ? renderResult(result.data) : null}
        {result?.ok && showResult ? <pre data-testid="action-result">{JSON.stringify(result.data, null, 2)}</pre> : null}
        <Button type="submit" disabled={pending} variant={variant} small={small}>
          {pending ? t("working") : submitLabel}
        </Button>
      </form>
    </ResultContext.Provider>
  );
}

/** The messages the last submission returned for `name`. */
function useFieldErrors(name: string): string[] {
  const result = useContext(ResultContext);
  return result && !result.ok ? (result.error.details?.[name] ?? []) : [];
}

export function Field({ label, name, hint, ...input }: { label: string; name: string; hint?: string } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  const errors = useFieldErrors(name);
  const described = [hint && `${id}-hint`, errors.length > 0 && `${id}-err`].filter(Boolean).join(" ") || undefined;
  return (
    <div className={styles.field}>
      <label htmlFor={id}>{label}</label>
      <input id={id} name={name} aria-invalid={errors.length > 0 || undefined} aria-describedby={described} {...input} />
      {hint ? (
        <span id={`${id}-hint`} className={styles.hint}>
          {hint}
        </span>
      ) : null}
      {errors.length > 0 ? (
        <span id={`${id}-err`} className={styles.fieldError}>
          {errors.join(" ")}
        </span>
      ) : null}
    </div>
  );
}

export function SelectField({
  label,
  name,
  options,
  hint,
  ...select
}: { label: string; name: string; options: Array<{ value: string; label: string }>; hint?: string } & SelectHTMLAttributes<HTMLSelectElement>) {
  const id = useId();
  const errors = useFieldErrors(name);
  const described = [hint && `${id}-hint`, errors.length > 0 && `${id}-err`].filter(Boolean).join(" ") || undefined;
  return (
    <div className={styles.field}>
      <label htmlFor={id}>{label}</label>
      <select id={id} name={name} aria-invalid={errors.length > 0 || undefined} aria-describedby={described} {...select}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {hint ? (
        <span id={`${id}-hint`} className={styles.hint}>
          {hint}
        </span>
      ) : null}
      {errors.length > 0 ? (
        <span id={`${id}-err`} className={styles.fieldError}>
          {errors.join(" ")}
        </span>
      ) : null}
    </div>
  );
}

/** Checkboxes sending one `name` with every checked value; options are values, or values with labels. */
export function CheckboxGroup({
  legend,
  name,
  options,
  defaultChecked = [],
}: {
  legend: string;
  name: string;
  options: ReadonlyArray<string | { value: string; label: string }>;
  defaultChecked?: string[];
}) {
  const errors = useFieldErrors(name);
  return (
    <fieldset className={styles.checkboxes}>
      <legend className={styles.legend}>{legend}</legend>
      {options.map((option) => {
        const { value, label } = typeof option === "string" ? { value: option, label: option } : option;
        return <Checkbox key={value} inline name={name} value={value} label={label} defaultChecked={defaultChecked.includes(value)} />;
      })}
      {errors.length > 0 ? <span className={styles.fieldError}>{errors.join(" ")}</span> : null}
    </fieldset>
  );
}
