import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SMTPServer } from "smtp-server";

/** A self-signed certificate for localhost / 127.0.0.1, made with openssl. */
export function selfSignedCert(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), "notify-cert-"));
  try {
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-keyout",
        join(dir, "key.pem"),
        "-out",
        join(dir, "cert.pem"),
        "-days",
        "2",
        "-subj",
        "/CN=localhost",
        "-addext",
        "subjectAltName=DNS:localhost,IP:127.0.0.1",
      ],
      { stdio: "ignore" },
    );
    return { key: readFileSync(join(dir, "key.pem"), "utf8"), cert: readFileSync(join(dir, "cert.pem"), "utf8") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The raw message (headers and body). */
  raw: string;
  subject: string;
  /** The body, quoted-printable soft breaks and escapes undone. */
  text: string;
  user: string | undefined;
  secure: boolean;
}

/** Undoes quoted-printable encoding (nodemailer uses it for long or non-ASCII lines). */
function decodeQp(s: string): string {
  return s.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}

/**
 * A real SMTP server (npm smtp-server) on a free loopback port. With `auth` it requires that
 * user and password; STARTTLS is offered with a self-signed certificate unless `tls` is false.
 */
export async function startSmtp(opts: { auth?: { user: string; pass: string }; tls?: boolean } = {}) {
  const mails: ReceivedMail[] = [];
  /** Every login attempt, accepted or not (what a client sent as its password). */
  const logins: { user: string; pass: string }[] = [];
  const { key, cert } = selfSignedCert();
  const server = new SMTPServer({
    key,
    cert,
    logger: false,
    disabledCommands: [...(opts.auth ? [] : ["AUTH"]), ...(opts.tls === false ? ["STARTTLS"] : [])],
    allowInsecureAuth: opts.tls === false,
    authOptional: !opts.auth,
    onAuth(a, _session, cb) {
      logins.push({ user: a.username ?? "", pass: a.password ?? "" });
      if (opts.auth && a.username === opts.auth.user && a.password === opts.auth.pass) {
        cb(null, { user: a.username });
        return;
      }
      const err = new Error("Invalid username or password") as Error & { responseCode: number };
      err.responseCode = 535;
      cb(err);
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const [head = "", ...body] = raw.split(/\r?\n\r?\n/);
        const subject = /^Subject: (.*(?:\r?\n[ \t].*)*)/im.exec(head)?.[1]?.replace(/\r?\n[ \t]/g, " ") ?? "";
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          subject,
          text: decodeQp(body.join("\n\n")),
          user: typeof session.user === "string" ? session.user : undefined,
          secure: session.secure,
        });
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    mails,
    logins,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
export type SmtpReceiver = Awaited<ReturnType<typeof startSmtp>>;

export interface ReceivedHook {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * A real HTTPS webhook receiver with a self-signed certificate (`cert` is its PEM, for ca_cert).
 * It answers each request with the next status of `script` (then the last one) and records it;
 * `body` replaces the text of its answers.
 */
export async function startHttpsReceiver(script: number[] = [200], opts: { body?: string } = {}) {
  const { key, cert } = selfSignedCert();
  const requests: ReceivedHook[] = [];
  const server = https.createServer({ key, cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      requests.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      const status = script[Math.min(requests.length - 1, script.length - 1)] ?? 200;
      res
        .writeHead(status, { "content-type": "text/plain" })
        .end(opts.body ?? (status < 300 ? "ok" : `status ${status}`));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `https://127.0.0.1:${port}/hook`,
    cert,
    requests,
    /** Changes the answers from now on (counting continues from the requests already received). */
    setScript(next: number[]) {
      script = [...Array<number>(requests.length).fill(200), ...next];
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
export type HttpsReceiver = Awaited<ReturnType<typeof startHttpsReceiver>>;
