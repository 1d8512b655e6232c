import { isIP } from "node:net";
import type * as Nodemailer from "nodemailer";
import type { ProviderSecrets, SmtpSettings } from "./providers.config.js";
import type { OutgoingNotification } from "./webhook.js";

type Mailer = typeof Nodemailer;
let mailer: Promise<Mailer> | undefined;
/**
 * nodemailer loads with the first email, not at start-up. It is CommonJS: Node gives its exports as
 * named exports, the bundled server as the default export only.
 */
const loadMailer = (): Promise<Mailer> =>
  (mailer ??= import("nodemailer").then((m) =>
    "createTransport" in m ? m : (m as unknown as { default: Mailer }).default,
  ));

/** The plain-text body of a notification email. */
export function emailText(n: OutgoingNotification): string {
  const lines = [n.message, ""];
  if (n.link) lines.push(`Details: ${n.link}`);
  lines.push(`Event: ${n.type}`, `Time: ${n.timestamp}`, "", "-- ChainLaunch");
  return lines.join("\n");
}

/** What each nodemailer error code means, in words that quote nothing the server said. */
const SMTP_FAILURES: Record<string, string> = {
  EAUTH: "the mail server refused the login",
  EENVELOPE: "the mail server refused the sender or a recipient",
  EMESSAGE: "the mail server refused the message",
  EPROTOCOL: "the server did not answer as an SMTP server",
  ETIMEDOUT: "the mail server did not answer in time",
  ETLS: "TLS with the mail server failed",
  EDNS: "the mail server's host name does not resolve",
  ECONNECTION: "the connection to the mail server failed",
  ESOCKET: "the connection to the mail server failed",
  EREQUIRETLS: "the mail server does not offer the TLS required",
};

/**
 * An SMTP failure as the status and the failure only: the reply code, the command and the socket
 * error, never the server's reply text. The host is chosen by a manager; quoting its answers
 * would let them read whatever a service on that host:port says (a loopback Redis, an HTTP page).
 * The error's own message is kept only when no server text went into it (a socket or certificate
 * error of this host).
 */
export class SmtpError extends Error {
  constructor(err: unknown) {
    const e = (err ?? {}) as {
      code?: unknown;
      originalCode?: unknown;
      responseCode?: unknown;
      command?: unknown;
      response?: unknown;
      message?: unknown;
    };
    const code = typeof e.code === "string" ? e.code : "";
    const what = SMTP_FAILURES[code] ?? "sending the email failed";
    const facts = [
      typeof e.responseCode === "number" ? `reply ${e.responseCode}` : "",
      typeof e.command === "string" && e.command !== "API" ? `at ${e.command.split(" ")[0]}` : "",
      typeof e.originalCode === "string" ? e.originalCode : "",
    ].filter(Boolean);
    const own =
      e.response === undefined &&
      ["ESOCKET", "ETLS", "EDNS", "ECONNECTION"].includes(code) &&
      typeof e.message === "string"
        ? e.message
        : "";
    super(`${what}${facts.length ? ` (${facts.join(", ")})` : ""}${own ? `: ${own}` : ""}`);
    this.name = "SmtpError";
  }
}

/**
 * Sends one email through the provider's SMTP server. use_tls: implicit TLS on port 465, STARTTLS
 * required on any other port; without it the connection stays plain (for local relays). Resolves
 * with the server's reply code; rejects with an SmtpError, which never quotes the server's text.
 */
export async function sendEmail(
  s: SmtpSettings,
  secrets: ProviderSecrets,
  n: OutgoingNotification,
  opts: { to?: string | undefined; timeoutMs: number },
): Promise<string> {
  const implicit = s.use_tls && s.port === 465;
  const transport = (await loadMailer()).createTransport({
    host: s.host,
    port: s.port,
    secure: implicit,
    requireTLS: s.use_tls && !implicit,
    ignoreTLS: !s.use_tls,
    // SNI carries host names only (RFC 6066); an IP address is checked against the certificate as is.
    tls: { rejectUnauthorized: !s.skip_tls_verify, ...(isIP(s.host) ? {} : { servername: s.host }) },
    connectionTimeout: opts.timeoutMs,
    greetingTimeout: opts.timeoutMs,
    socketTimeout: opts.timeoutMs,
    ...(s.username ? { auth: { user: s.username, pass: secrets.password ?? "" } } : {}),
  });
  let info: { response?: unknown };
  try {
    info = await transport.sendMail({
      from: { name: s.from_name, address: s.from_email },
      to: (opts.to ?? s.to_email)
        .split(",")
        .map((a) => a.trim())
        .filter(Boolean),
      subject: `[ChainLaunch] ${n.title}`,
      text: emailText(n),
      headers: { "X-ChainLaunch-Event": n.type, "X-ChainLaunch-Delivery": n.id },
    });
  } catch (err) {
    throw new SmtpError(err);
  } finally {
    transport.close();
  }
  const reply = typeof info.response === "string" ? /^\d{3}/.exec(info.response)?.[0] : undefined;
  return `the mail server accepted it${reply ? ` (reply ${reply})` : ""}`;
}
