/**
 * A store's support e-mail and help page as links ("a@shop.example · shop.example/help") for the customer pages'
 * support lines: the branded page's footer (a server component) and the refund form (a client one).
 */
export function SupportContactLinks({ email, url, linkClassName }: { email: string | null; url: string | null; linkClassName?: string }) {
  return (
    <>
      {email && (
        <a href={`mailto:${email}`} className={linkClassName}>
          {email}
        </a>
      )}
      {email && url && " · "}
      {url && (
        <a href={url} target="_blank" rel="noopener noreferrer" className={linkClassName}>
          {url.replace(/^https?:\/\//, "")}
        </a>
      )}
    </>
  );
}
