import type { Metadata } from "next";
import Link from "next/link";
import { defaultPayButton, isHexColor, payButtonSnippet } from "@/lib/dashboard/pay-button";
import { docsBaseUrl } from "../../base-url";
import { styles } from "../../code";

export const metadata: Metadata = { title: "Pay button example" };

const linkIdPattern = /^LNK-[A-Za-z0-9_-]{1,64}$/;

// /docs/pay-button/example?link=LNK-…&background=%23rrggbb&color=%23rrggbb&label=… – a shop page with the pay button exactly as the builder makes it
export default async function PayButtonExamplePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const one = (name: string) => (typeof params[name] === "string" ? (params[name] as string) : undefined);
  const linkId = one("link")?.trim();
  const valid = linkId !== undefined && linkIdPattern.test(linkId);
  const background = one("background") ?? defaultPayButton.background;
  const color = one("color") ?? defaultPayButton.color;
  const snippet = valid
    ? payButtonSnippet({
        url: `${await docsBaseUrl()}/link/${linkId}`,
        label: one("label")?.slice(0, 40) ?? defaultPayButton.label,
        background: isHexColor(background) ? background : defaultPayButton.background,
        color: isHexColor(color) ? color : defaultPayButton.color,
      })
    : null;
  return (
    <main className={styles.guide}>
      <p>
        <Link href="/docs/pay-button">← Pay button</Link>
      </p>
      <h1>Example shop page</h1>
      <p className={styles.lead}>A page of a site without a backend: a product and the pay button pasted from the dashboard.</p>
      <form method="get" aria-label="Show the button of a payment link">
        <label htmlFor="example-link">Payment link id</label>{" "}
        <input id="example-link" name="link" defaultValue={linkId ?? ""} placeholder="LNK-…" required pattern="LNK-[A-Za-z0-9_\-]+" />{" "}
        <button type="submit">Show its button</button>
      </form>
      {linkId !== undefined && !valid ? <p role="alert">That is not a payment link id: they look like LNK-7Kq2Vd9XbT3m.</p> : null}
      {snippet ? (
        <section aria-label="Product">
          <h2>The e-book</h2>
          <p>Everything in one PDF. Pay with crypto; the download link follows by e-mail.</p>
          {/* The merchant's snippet as pasted: built by payButtonSnippet (escaped label, checked colours and URL). */}
          <div data-testid="pay-button" dangerouslySetInnerHTML={{ __html: snippet }} />
        </section>
      ) : null}
    </main>
  );
}
