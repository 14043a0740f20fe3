import type { AbstractIntlMessages } from "next-intl";

/** The namespaces of the active locale's messages that a page's client components use (the rest stays on the server). */
export function pickMessages(messages: AbstractIntlMessages, namespaces: string[]): AbstractIntlMessages {
  return Object.fromEntries(namespaces.filter((name) => name in messages).map((name) => [name, messages[name]!]));
}
