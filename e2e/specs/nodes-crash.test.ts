import { createServer, type Server } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCall } from "../support/api.js";
import { adminUser, openAs, openSession, screenshot, type Session } from "../support/browser.js";
import { createFabricNodes, fabricProcesses, removeFabricFixtures } from "../support/fabric.js";

const SUFFIX = Date.now().toString(36);
const MSP = `CrashE2e${SUFFIX}MSP`;
const PEER = `peer0-crash-${SUFFIX}`;

/** Holds host:port the way another program would, so the peer's bind fails; retried while the port frees. */
async function takePort(host: string, port: number): Promise<Server> {
  const until = Date.now() + 2000;
  for (;;) {
    const server = createServer();
    const err = await new Promise<Error | null>((resolve) => {
      server.once("error", resolve);
      server.listen({ host, port, exclusive: true }, () => resolve(null));
    });
    if (!err) return server;
    if (Date.now() > until) throw err;
    await sleep(20);
  }
}

/**
 * Issue 33 items 2 and 3 in a browser: a peer killed from outside shows its restart on the open node
 * page, and a peer that can't come back ends in "failed" with its reason, its counted attempts and
 * its log, and stays down.
 */
describe("node crashes", () => {
  let s: Session;
  let orgId = 0;
  let nodeId = 0;
  let listen = { host: "", port: 0 };
  const ports: string[] = [];
  let holder: Server | undefined;

  const status = (): Promise<string | null> =>
    s.page.locator("main").getByTestId("node-status").first().getAttribute("data-status");
  const peerPids = (): number[] => fabricProcesses([String(listen.port)]);

  beforeAll(async () => {
    s = await openSession();
    const org = await apiCall<{ id: number }>(s.baseUrl, adminUser(), "POST", "/organizations", {
      mspId: MSP,
      name: `crash-e2e-${SUFFIX}`,
    });
    expect(org.status).toBe(201);
    orgId = org.data.id;
    const [peer] = await createFabricNodes(
      s.baseUrl,
      adminUser(),
      { id: orgId, mspId: MSP },
      { peers: [PEER], orderers: [] },
      ports,
    );
    nodeId = peer!.id;
    const n = await apiCall<{ fabricPeer: { listenAddress: string } }>(
      s.baseUrl,
      adminUser(),
      "GET",
      `/nodes/${nodeId}`,
    );
    const [host, port] = n.data.fabricPeer.listenAddress.split(/:(?=\d+$)/);
    listen = { host: host!, port: Number(port) };
  }, 180_000);

  afterAll(async () => {
    holder?.close();
    await removeFabricFixtures(s.baseUrl, adminUser(), { channels: [], orgId, nodeIds: [nodeId], ports });
    await s.close();
  });

  it("shows a peer killed by pid restarting, then RUNNING again, on its open page without a reload", async () => {
    await openAs(s, adminUser(), `/nodes/${nodeId}`);
    await s.page.getByRole("heading", { name: PEER }).waitFor();
    expect(await status()).toBe("RUNNING");
    let navigations = 0;
    s.page.on("framenavigated", () => navigations++);
    const [pid] = peerPids();
    expect(pid).toBeGreaterThan(0);

    process.kill(pid!, "SIGKILL");
    // Within 5 s the page says what happened: the crash and the restart it is waiting for.
    const restarting = s.page.getByTestId("node-restarting");
    await restarting.waitFor({ timeout: 5000 });
    expect(await restarting.getByTestId("node-trouble-reason").textContent()).toMatch(
      /(restarting in [\d.]+ s|restarted) \(attempt 1 of 5\) after signal SIGKILL/,
    );
    expect(await status()).toBe("STARTING");
    // Then the supervisor's restart, again without a reload.
    await expect.poll(status, { timeout: 30_000, interval: 100 }).toBe("RUNNING");
    await restarting.waitFor({ state: "detached" });
    const [again] = peerPids();
    expect(again).toBeGreaterThan(0);
    expect(again).not.toBe(pid);
    expect(navigations).toBe(0);
  });

  it("ends a peer that can't start again in failed, with the reason, the attempts and its log, and stops restarting", async () => {
    await s.page.goto(`/nodes/${nodeId}`);
    await s.page.getByRole("heading", { name: PEER }).waitFor();
    await expect.poll(status, { timeout: 30_000 }).toBe("RUNNING");
    let navigations = 0;
    s.page.on("framenavigated", () => navigations++);
    const [pid] = peerPids();
    expect(pid).toBeGreaterThan(0);
    process.kill(pid!, "SIGKILL");
    // Another program takes the peer's listen port before the restart: every restart fails to bind.
    holder = await takePort(listen.host, listen.port);

    // While it restarts, the page says which attempt it is on and why, with the log's last lines.
    const reasons = new Set<string>();
    const restarting = s.page.getByTestId("node-restarting");
    const failed = s.page.getByTestId("node-error");
    await restarting.waitFor({ timeout: 5000 });
    const until = Date.now() + 120_000;
    while (!(await failed.isVisible())) {
      const text = await restarting
        .getByTestId("node-trouble-reason")
        .textContent({ timeout: 1000 })
        .catch(() => null);
      if (text && reasons.size === 1 && !reasons.has(text)) await screenshot(s.page, "node-crash-restarting");
      if (text) reasons.add(text);
      if (Date.now() > until) throw new Error(`not failed after 120 s; saw ${[...reasons].join(" | ")}`);
      await sleep(200);
    }
    const attempts = [...reasons].flatMap((r) => /\(attempt (\d) of 5\)/.exec(r)?.[1] ?? []).map(Number);
    expect(new Set(attempts).size).toBeGreaterThanOrEqual(3);
    expect(attempts).toEqual([...attempts].sort());
    expect([...reasons].some((r) => /after exit code \d+: .*address already in use/.test(r))).toBe(true);

    // Failed: the reason (exit code and the decisive log line), the count, and the log.
    expect(await status()).toBe("ERROR");
    const reason = await failed.getByTestId("node-trouble-reason").textContent();
    expect(reason).toMatch(/^failed: exit code \d+: .*address already in use/);
    await failed.getByText("crashed 6 times in a row, restarted 5 times; no more restarts").waitFor();
    await failed
      .getByRole("log", { name: "Last log lines" })
      .getByText(/address already in use/)
      .first()
      .waitFor();
    expect(navigations).toBe(0);
    await screenshot(s.page, "node-crash-failed");

    // And it stays down: no new process, no new event, still failed.
    const events = async (): Promise<number> =>
      (await apiCall<{ total: number }>(s.baseUrl, adminUser(), "GET", `/nodes/${nodeId}/events?page=1&limit=1`)).data
        .total;
    const before = await events();
    await sleep(5000);
    expect(await events()).toBe(before);
    expect(peerPids()).toEqual([]);
    expect(await status()).toBe("ERROR");
    // The Events tab counts the crashes: the last one is the 6th in a row, with no restart.
    await s.page.getByRole("tab", { name: "Events" }).click();
    await s.page
      .getByTestId("node-events")
      .getByText(/attempt: 6 · willRestart: false/)
      .waitFor();

    // With the port free again, Start brings it back and the failure goes away.
    holder.close();
    holder = undefined;
    await s.page.getByRole("button", { name: `Start ${PEER}`, exact: true }).click();
    await expect.poll(status, { timeout: 60_000, interval: 200 }).toBe("RUNNING");
    await failed.waitFor({ state: "detached" });
  });
});
