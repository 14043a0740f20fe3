/**
 * next-intl's server functions for a page rendered outside Next (a test renders a dashboard page to HTML): the
 * English messages, UTC. A test file replaces the module with this one:
 * `vi.mock("next-intl/server", () => import("../helpers/next-intl-server-en"))`, and renders with `renderPage`.
 */
import { createElement, type ComponentProps, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { NextIntlClientProvider, createFormatter, createTranslator } from "next-intl";
import messages from "@/messages/en.json";

export const getTranslations = async (namespace?: string | { namespace?: string }) =>
  createTranslator({ locale: "en", messages, namespace: (typeof namespace === "string" ? namespace : namespace?.namespace) as never });
export const getLocale = async () => "en";
export const getMessages = async () => messages;
export const getTimeZone = async () => "UTC";
export const getNow = async () => new Date();
export const getFormatter = async () => createFormatter({ locale: "en", timeZone: "UTC" });

/** A page rendered as the dashboard renders it: its client parts under the English messages. */
export function renderPage(page: ReactNode): string {
  return renderToStaticMarkup(
    createElement(NextIntlClientProvider, { locale: "en", messages, timeZone: "UTC" } as unknown as ComponentProps<typeof NextIntlClientProvider>, page),
  );
}
