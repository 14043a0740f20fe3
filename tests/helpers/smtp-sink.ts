import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  from: string;
  to: string[];
  /** RFC 2047 encoded words decoded (a subject in German or Japanese arrives encoded). */
  subject: string;
  /** Each part decoded from its transfer encoding (quoted-printable or base64): the text and html parts as readable text. */
  body: string;
  raw: string;
}

/** Undoes quoted-printable (the encoding nodemailer picks for long lines): soft line breaks and =XX escapes. */
function decodeQuotedPrintable(text: string): string {
  const bytes = Buffer.from(text.replace(/=\r?\n/g, ""), "latin1");
  const out: number[] = [];
  for (let i = 0; i < bytes.length; i++) {
    const hex = bytes[i] === 0x3d ? bytes.subarray(i + 1, i + 3).toString("latin1") : "";
    if (/^[0-9A-F]{2}$/.test(hex)) {
      out.push(parseInt(hex, 16));
      i += 2;
    } else out.push(bytes[i]!);
  }
  return Buffer.from(out).toString("utf8");
}

/**
 * A header's RFC 2047 encoded words (=?UTF-8?B?…?= and =?UTF-8?Q?…?=) as text: a run of them (the
 * whitespace between dropped) is decoded to bytes first, so a character split across two words survives.
 */
function decodeEncodedWords(header: string): string {
  const word = /=\?[^?]+\?([BbQq])\?([^?]*)\?=/g;
  return header.replace(/=\?[^?]+\?[BbQq]\?[^?]*\?=(?:\s+=\?[^?]+\?[BbQq]\?[^?]*\?=)*/g, (run) =>
    Buffer.concat(
      [...run.matchAll(word)].map(([, encoding, text = ""]) =>
        encoding!.toUpperCase() === "B" ? Buffer.from(text, "base64") : Buffer.from(decodeQuotedPrintable(text.replace(/_/g, " ")), "utf8"),
      ),
    ).toString("utf8"),
  );
}

/** One MIME entity's content decoded by its Content-Transfer-Encoding; a multipart one as its parts' decoded contents, one after another. */
function decodeEntity(headers: string, content: string): string {
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(headers)?.[1];
  if (/^Content-Type:\s*multipart\//im.test(headers) && boundary) {
    return content
      .split(`--${boundary}`)
      .slice(1)
      .filter((part) => !part.startsWith("--"))
      .map((part) => {
        const at = part.indexOf("\r\n\r\n");
        return at < 0 ? "" : decodeEntity(part.slice(0, at).replace(/\r\n[ \t]+/g, " "), part.slice(at + 4));
      })
      .join("\r\n");
  }
  const encoding = /^Content-Transfer-Encoding:\s*(\S+)/im.exec(headers)?.[1]?.toLowerCase();
  if (encoding === "base64") return Buffer.from(content.replace(/\s+/g, ""), "base64").toString("utf8");
  return decodeQuotedPrintable(content);
}

/**
 * A real SMTP server on 127.0.0.1 (random port, no auth, no STARTTLS) that keeps every message it
 * accepts. `url` is what SMTP_URL is set to.
 */
export async function startSmtpSink() {
  const messages: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const headerEnd = raw.indexOf("\r\n\r\n");
        const headers = raw.slice(0, headerEnd).replace(/\r\n[ \t]+/g, " ");
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          subject: decodeEncodedWords(/^Subject: (.*)$/im.exec(headers)?.[1] ?? ""),
          body: decodeEntity(headers, raw.slice(headerEnd + 4)),
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    /** Messages to `address` so far. */
    to: (address: string) => messages.filter((m) => m.to.includes(address.toLowerCase()) || m.to.includes(address)),
    /** Waits (bounded) for the `n`-th message to `address` matching `subject`. */
    async waitFor(address: string, subject: RegExp, n = 1, timeoutMs = 10_000): Promise<ReceivedMail> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = messages.filter((m) => m.to.includes(address) && subject.test(m.subject));
        if (found.length >= n) return found[n - 1]!;
        if (Date.now() > deadline)
          throw new Error(
            `no mail #${n} to ${address} matching ${subject} within ${timeoutMs} ms; got: ${messages.map((m) => `${m.to} ${m.subject}`).join("; ")}`,
          );
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The `token` of the first link to `path` in a mail. */
export function linkToken(mail: ReceivedMail, path: string): string {
  const match = new RegExp(`https?://[^\\s"<>]*${path}\\?token=([A-Za-z0-9_-]+)`).exec(mail.body);
  if (!match) throw new Error(`no ${path} link in: ${mail.body}`);
  return match[1]!;
}
