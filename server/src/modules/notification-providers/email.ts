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

/**
 * Sends one email through the provider's SMTP server. use_tls: implicit TLS on port 465, STARTTLS
 * required on any other port; without it the connection stays plain (for local relays). Resolves
 * with the server's final answer; rejects with nodemailer's error, which quotes the server's reply.
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
  try {
    const info = await transport.sendMail({
      from: { name: s.from_name, address: s.from_email },
      to: (opts.to ?? s.to_email)
        .split(",")
        .map((a) => a.trim())
        .filter(Boolean),
      subject: `[ChainLaunch] ${n.title}`,
      text: emailText(n),
      headers: { "X-ChainLaunch-Event": n.type, "X-ChainLaunch-Delivery": n.id },
    });
    return typeof info.response === "string" ? info.response : "accepted";
  } finally {
    transport.close();
  }
}
