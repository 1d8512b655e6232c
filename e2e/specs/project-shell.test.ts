import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { processesMatching } from "../../server/src/test-support/terminal.js";
import { apiCall } from "../support/api.js";
import { openAs, openSession, screenshot, type Session } from "../support/browser.js";
import { createOneOrgChannel, removeFabricFixtures } from "../support/fabric.js";
import { startServer, type RunningServer } from "../support/server.js";

const SUFFIX = Date.now().toString(36);
const MSP = `ShE2e${SUFFIX}MSP`;
const CHANNEL = `sh-${SUFFIX}`;
const MANAGER = { username: `sh.manager.${SUFFIX}`, password: "manager-pass-1" };
const VIEWER = { username: `sh.viewer.${SUFFIX}`, password: "viewer-pass-1" };

/** What the terminal shows now (xterm's DOM rows). */
const screenText = (page: Page): Promise<string> => page.locator(".xterm-rows").innerText();

/** Types a line into the terminal and waits until the screen matches `re`. */
async function typeLine(page: Page, line: string, re: RegExp): Promise<string> {
  await page.getByTestId("terminal").click();
  await page.keyboard.type(`${line}\n`);
  const until = Date.now() + 20_000;
  for (;;) {
    const text = await screenText(page);
    if (re.test(text)) return text;
    if (Date.now() > until) {
      await screenshot(page, "project-shell-no-output");
      throw new Error(`the terminal did not show ${re} after '${line}'; it shows:\n${text}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Issue 32: a manager opens a terminal in the project editor (a real shell in the project folder,
 * inside the sandbox, over the websocket), runs pwd and ls, creates a file the file tree then shows,
 * can't read the master key, and ends the session, leaving no process behind. A viewer gets no
 * terminal, and the server refuses their socket.
 */
describe("project shell", () => {
  let server: RunningServer;
  let s: Session;
  let orgId = 0;
  let project: { id: number; slug: string };
  const nodeIds: number[] = [];
  const ports: string[] = [];
  const admin = () => ({ username: "admin", password: server.adminPassword });

  beforeAll(async () => {
    // Its own server: the spec needs its data directory (the master key's path).
    server = await startServer();
    s = await openSession({ baseUrl: server.url });
    for (const [u, role] of [
      [MANAGER, "manager"],
      [VIEWER, "viewer"],
    ] as const) {
      const r = await apiCall(server.url, admin(), "POST", "/users", { ...u, role });
      if (r.status !== 201) throw new Error(`creating ${u.username}: ${r.status} ${JSON.stringify(r.data)}`);
    }
    const fx = await createOneOrgChannel(server.url, admin(), {
      mspId: MSP,
      orgName: `sh-e2e-${SUFFIX}`,
      channel: CHANNEL,
      tag: `sh-${SUFFIX}`,
      ports,
    });
    orgId = fx.orgId;
    nodeIds.push(...fx.nodeIds);
    const p = await apiCall<{ id: number; slug: string }>(server.url, MANAGER, "POST", "/chaincode-projects", {
      name: `shell ${SUFFIX}`,
      networkId: fx.networkId,
      boilerplate: "chaincode-javascript",
    });
    if (p.status !== 201) throw new Error(`creating the project: ${p.status} ${JSON.stringify(p.data)}`);
    project = p.data;
  }, 240_000);

  afterAll(async () => {
    if (project) await apiCall(server.url, admin(), "DELETE", `/chaincode-projects/${project.id}`);
    const survivors = await removeFabricFixtures(server.url, admin(), { channels: [CHANNEL], orgId, nodeIds, ports });
    await s?.close();
    await server?.stop();
    expect(survivors).toEqual([]);
  }, 120_000);

  it("runs a shell in the project folder for a manager, confined, and ends it with its processes", async () => {
    const page = s.page;
    const folder = join(server.dataDir, "projects", project.slug);
    await openAs(s, MANAGER, `/sc/fabric/projects/chaincodes/${project.id}/editor`);
    await page.getByRole("button", { name: "Terminal" }).click();
    await page
      .getByRole("status", { name: "Terminal status" })
      .getByText(/^Connected/)
      .waitFor({ timeout: 30_000 });

    await typeLine(page, "pwd", new RegExp(`${project.slug}\\s*\\n.*\\$`));
    expect((await screenText(page)).replace(/\s+/g, "")).toContain(folder.replace(/\s+/g, ""));
    await typeLine(page, "ls", /package\.json/);

    await typeLine(page, "echo hi > x.txt && echo written", /^written$/m);
    // The tree is read again once the shell's output pauses.
    await page.getByRole("navigation", { name: "Project files" }).getByRole("button", { name: "x.txt" }).waitFor();
    const read = await apiCall<{ content: string }>(
      server.url,
      MANAGER,
      "GET",
      `/projects/${project.id}/files/read?path=x.txt`,
    );
    expect(read.data.content).toBe("hi\n");

    await typeLine(page, `cat ${join(server.dataDir, "master.key")}`, /No such file or directory|Permission denied/);

    const tag = `${7000 + Math.floor(Math.random() * 900)}`;
    await typeLine(page, `sleep ${tag}1 & setsid sleep ${tag}2 & echo bg-started`, /^bg-started$/m);
    expect(processesMatching(`sleep ${tag}`)).toHaveLength(2);
    await screenshot(page, "project-shell");

    await page.getByRole("button", { name: "End session" }).click();
    await page
      .getByRole("status", { name: "Terminal status" })
      .getByText(/^Session ended: closed/)
      .waitFor();
    expect(processesMatching(`sleep ${tag}`)).toEqual([]);
    const left = await apiCall<{ count: number }>(
      server.url,
      MANAGER,
      "GET",
      `/chaincode-projects/${project.id}/shell/sessions`,
    );
    expect(left.data.count).toBe(0);
  }, 120_000);

  it("gives a viewer no terminal, and refuses their socket and the shell API with 403", async () => {
    const page = s.page;
    await openAs(s, VIEWER, `/sc/fabric/projects/chaincodes/${project.id}/editor`);
    await page.getByRole("navigation", { name: "Project files" }).waitFor();
    expect(await page.getByRole("button", { name: "Terminal" }).count()).toBe(0);
    const opened = await page.evaluate(
      (url) =>
        new Promise<string>((resolve) => {
          const ws = new WebSocket(url);
          ws.onopen = () => resolve("open");
          ws.onerror = () => resolve("refused");
        }),
      `${server.url.replace("http", "ws")}/api/v1/chaincode-projects/${project.id}/shell/ws`,
    );
    expect(opened).toBe("refused");
    for (const path of ["config", "sessions"]) {
      const r = await apiCall(server.url, VIEWER, "GET", `/chaincode-projects/${project.id}/shell/${path}`);
      expect(r.status, path).toBe(403);
    }
    // The download is a read: a viewer may take the source.
    const dl = await page.request.get(`/api/v1/chaincode-projects/${project.id}/download`);
    expect(dl.status()).toBe(200);
    expect(dl.headers()["content-type"]).toBe("application/zip");
  }, 60_000);

  it("lets the side panels collapse at 1440 px so the code pane takes their room, and remembers it", async () => {
    const page = s.page;
    await page.setViewportSize({ width: 1440, height: 900 });
    try {
      await openAs(s, MANAGER, `/sc/fabric/projects/chaincodes/${project.id}/editor`);
      const code = page.getByTestId("code-editor");
      await page.locator(".monaco-editor").first().waitFor();
      const width = async () => (await code.boundingBox())?.width ?? 0;
      const open = await width();
      await page.getByRole("button", { name: "Hide files" }).click();
      await page.getByRole("button", { name: "Hide call panel" }).click();
      await page.getByTestId("rail-calls").waitFor();
      const collapsed = await width();
      // Both panels (14rem and 20rem) give way to 2.5rem rails.
      expect(collapsed - open).toBeGreaterThan(400);
      await page.reload();
      await page.getByTestId("rail-files").waitFor();
      await page.getByTestId("rail-calls").waitFor();
      await page.getByRole("button", { name: "Show files" }).click();
      await page.getByRole("navigation", { name: "Project files" }).waitFor();
      await page.getByRole("button", { name: "Show call panel" }).click();
      await page.getByText("Call the running code").waitFor();
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  }, 60_000);
});
