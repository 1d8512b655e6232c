import { afterAll, describe, expect, it } from "vitest";
import { fabricApi, haveFabricBinaries, waitFor, type FabricApi, type Json } from "../../test-support/fabric-api.js";
import {
  startHttpsReceiver,
  startSmtp,
  type HttpsReceiver,
  type SmtpReceiver,
} from "../../test-support/notify-receivers.js";
import { webhookSignature } from "./webhook.js";

const bins = await haveFabricBinaries("notification providers e2e");
const SMTP_PASS = "e2e-smtp-password";
const HOOK_SECRET = "e2e-hook-secret-0123456789";

/**
 * The acceptance test of issue 14's notifications: a real peer is killed with kill -9; past the
 * (short) downtime grace the console reports it in the bell (GET /user-notifications), by email to a
 * real SMTP server (STARTTLS, auth) and by a signed webhook to a real HTTPS receiver. When the
 * supervisor has started it again, node.recovery goes out through both.
 */
describe("notification providers e2e", () => {
  let h: FabricApi | undefined;
  let smtp: SmtpReceiver | undefined;
  let hook: HttpsReceiver | undefined;
  afterAll(async () => {
    await h?.close();
    await smtp?.close();
    await hook?.close();
  });

  it.skipIf(!bins)(
    "a killed peer is reported by email and webhook, and so is its recovery",
    async () => {
      smtp = await startSmtp({ auth: { user: "alerts", pass: SMTP_PASS } });
      hook = await startHttpsReceiver([200]);
      // The grace is short so the kill is reported before the restart.
      h = await fabricApi({
        env: { CHAINLAUNCH_DOWNTIME_GRACE_SECONDS: "0.2" },
      });
      await h.ok("POST", "/notifications/providers", {
        name: "ops-mail",
        type: "SMTP",
        config: {
          host: "127.0.0.1",
          port: smtp.port,
          username: "alerts",
          password: SMTP_PASS,
          from_email: "console@example.com",
          to_email: "ops@example.com",
          skip_tls_verify: true,
        },
        notifyNodeDowntime: true,
      });
      await h.ok("POST", "/notifications/providers", {
        name: "ops-hook",
        type: "WEBHOOK",
        config: { url: hook.url, secret: HOOK_SECRET, ca_cert: hook.cert },
        notify_node_downtime: true,
      });

      const org = await h.ok("POST", "/organizations", { mspId: "NotifyOrg1MSP", name: "Notify Org 1" });
      const [peer] = (await h.createNodes(org, 1, 0, "np-")) as Json[];
      const [pid] = h.nodeProcesses();
      expect(pid).toBeGreaterThan(0);
      process.kill(pid as number, "SIGKILL");

      const api = h;
      const bell = async (type: string) => {
        const notes = (await api.ok("GET", "/user-notifications?limit=50")).notifications as Json[];
        return notes.find((n) => n.event_type === type && n.event_data.node_id === peer.id);
      };
      const down = await waitFor("node.downtime in the bell", () => bell("node.downtime"), 60_000);
      expect(down.event_data).toMatchObject({ node_name: peer.name });

      const rx = smtp;
      const mail = await waitFor(
        "the Node Down email",
        async () => rx.mails.find((m) => m.subject.includes("Node Down")),
        30_000,
      );
      expect(mail.to).toEqual(["ops@example.com"]);
      expect(mail.user).toBe("alerts");
      expect(mail.text).toContain(`Node ${peer.name} has been down`);
      expect(mail.text).toContain(`/nodes/${peer.id}`);

      const hx = hook;
      const verified = (type: string) => async () =>
        hx.requests.find((r) => {
          const ts = String(r.headers["x-chainlaunch-timestamp"]);
          return (
            r.headers["x-chainlaunch-event"] === type &&
            r.headers["x-chainlaunch-signature"] === webhookSignature(HOOK_SECRET, ts, r.body)
          );
        });
      const downHook = await waitFor("a signed node.downtime webhook", verified("node.downtime"), 30_000);
      expect(JSON.parse(downHook.body)).toMatchObject({
        type: "node.downtime",
        title: "Node Down",
        data: { node_id: peer.id },
      });

      // The supervisor starts the peer again: the recovery goes out through both providers.
      await waitFor("node.recovery in the bell", () => bell("node.recovery"), 90_000);
      const upMail = await waitFor(
        "the Node Recovered email",
        async () => rx.mails.find((m) => m.subject.includes("Node Recovered")),
        30_000,
      );
      expect(upMail.text).toContain(`Node ${peer.name} is running again`);
      const upHook = await waitFor("a signed node.recovery webhook", verified("node.recovery"), 30_000);
      expect(JSON.parse(upHook.body)).toMatchObject({ title: "Node Recovered", link: `/nodes/${peer.id}` });
    },
    300_000,
  );
});
