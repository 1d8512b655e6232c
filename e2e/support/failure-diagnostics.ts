import { appendFileSync, readFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { freemem, loadavg } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { beforeEach, inject } from "vitest";
import { ARTIFACTS, openSessions } from "./browser.js";

/**
 * What a failed browser test leaves behind, so a timeout in a long run says whether the server, the
 * browser or the machine was slow: the load and free memory, how long the server takes to answer
 * /healthz and to an authenticated read, each open page's address, document state and first words (and a screenshot in
 * e2e/artifacts/failures/), and the last lines the server logged. One line per failure goes to the
 * console and, when scripts/test-all.sh sets CHAINLAUNCH_TEST_DIAG, to that file: the run's closing
 * summary prints it under the FAILED lines.
 */
const within = <T>(ms: number, p: Promise<T>): Promise<T | string> =>
  Promise.race([p, new Promise<string>((r) => setTimeout(() => r(`no answer in ${ms} ms`), ms))]);

async function timed(what: () => Promise<unknown>, ms: number): Promise<string> {
  const t0 = Date.now();
  try {
    const r = await within(ms, what());
    return typeof r === "string" && r.startsWith("no answer") ? r : `${Date.now() - t0} ms`;
  } catch (e) {
    return `failed after ${Date.now() - t0} ms: ${(e as Error).message.split("\n")[0]}`;
  }
}

async function pageState(page: Page, shot: string): Promise<string> {
  const url = page.url().replace(/^https?:\/\/[^/]+/, "");
  let state = "?";
  const answer = await timed(async () => {
    state = await page.evaluate(
      () => `${document.readyState}: ${(document.querySelector("main") ?? document.body)?.innerText ?? ""}`,
    );
  }, 5000);
  await within(
    10_000,
    page.screenshot({ path: shot }).catch(() => undefined),
  );
  return `page ${url} (renderer ${answer}) ${state.replace(/\s+/g, " ").slice(0, 160)}`;
}

function serverTail(lines: number): string {
  try {
    const text = readFileSync(inject("serverLog"), "utf8").trim().split("\n").slice(-lines);
    return text.map((l) => l.slice(0, 200)).join(" | ");
  } catch {
    return "(no server log)";
  }
}

beforeEach((ctx) => {
  ctx.onTestFailed(async () => {
    const name = ctx.task.name;
    const base = inject("baseUrl");
    const parts = [
      `load ${loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}`,
      `free ${Math.round(freemem() / 2 ** 20)} MiB`,
      `healthz ${await timed(() => fetch(`${base}/healthz`).then((r) => r.text()), 10_000)}`,
      // A read that goes through authentication and the database.
      `GET /organizations ${await timed(
        () =>
          fetch(`${base}/api/v1/organizations`, {
            headers: { authorization: `Basic ${Buffer.from(`admin:${inject("adminPassword")}`).toString("base64")}` },
          }).then((r) => r.text()),
        10_000,
      )}`,
    ];
    const dir = join(ARTIFACTS, "failures");
    await mkdir(dir, { recursive: true });
    let i = 0;
    for (const s of openSessions) {
      const shot = join(dir, `${name.replace(/[^\w-]+/g, "-").slice(0, 80)}-${i++}.png`);
      parts.push(await pageState(s.page, shot));
    }
    parts.push(`server log: ${serverTail(3)}`);
    const line = `diag ${ctx.task.file?.name ?? ""} > ${name}: ${parts.join("; ")}`;
    console.warn(line);
    if (process.env.CHAINLAUNCH_TEST_DIAG) appendFileSync(process.env.CHAINLAUNCH_TEST_DIAG, `${line}\n`);
  });
});
