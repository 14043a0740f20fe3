import { createTranslator } from "next-intl";
import type { Translate } from "@/lib/http/error-wording";
import { customerLocales, type CustomerLocale } from "@/lib/i18n/locales";
import de from "@/messages/de.json";
import en from "@/messages/en.json";
import es from "@/messages/es.json";
import fr from "@/messages/fr.json";
import ja from "@/messages/ja.json";
import pt from "@/messages/pt.json";
import zh from "@/messages/zh.json";

export const allMessages: Record<CustomerLocale, typeof en> = { en, de, fr, es, pt, ja, zh };
export { customerLocales };

/** next-intl's translate function for one namespace of messages/<locale>.json, as the pages get it. */
export function wordsFor(namespace: keyof typeof en, locale: CustomerLocale = "en"): Translate {
  const t = createTranslator({ locale, messages: allMessages[locale], namespace });
  return (key, values) => (t as unknown as Translate)(key, values);
}
