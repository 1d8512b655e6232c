import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { expect, inject } from "vitest";
import { browserNetns } from "./browser-netns.js";
import type { Credentials } from "./users.js";

/** Chromium flags from docs (dependencies.md): no sandbox, GPU, QUIC, sync or background traffic. */
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export const ARTIFACTS = resolve(import.meta.dirname, "..", "artifacts");

export interface Session {
  context: BrowserContext;
  page: Page;
  baseUrl: string;
  close: () => Promise<void>;
}

/** The sessions open now: a failing test's diagnostics (support/failure-diagnostics.ts) look at their pages. */
export const openSessions = new Set<Session>();

export const DESKTOP = { width: 1280, height: 800 };
export const MOBILE = { width: 390, height: 844 };

/** A fresh Chromium profile (its own --user-data-dir) and one page. */
export async function openSession(
  opts: { viewport?: { width: number; height: number }; colorScheme?: "light" | "dark"; baseUrl?: string } = {},
): Promise<Session> {
  const baseUrl = opts.baseUrl ?? inject("baseUrl");
  const dir = await mkdtemp(join(tmpdir(), "chainlaunch-chromium-"));
  const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  const netns = browserNetns(chromiumPath);
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: netns?.executablePath ?? chromiumPath,
    headless: true,
    args: [...ARGS, ...(netns?.args ?? [])],
    viewport: opts.viewport ?? DESKTOP,
    colorScheme: opts.colorScheme ?? "light",
    baseURL: baseUrl,
    permissions: ["clipboard-read", "clipboard-write"],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const session: Session = {
    context,
    page,
    baseUrl,
    close: async () => {
      openSessions.delete(session);
      await context.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
  openSessions.add(session);
  return session;
}

/** Signs in through the API from inside the browser context, so the session cookie lands in the profile. */
export async function loginViaApi(s: Session, user: Credentials): Promise<void> {
  const r = await s.context.request.post("/api/v1/auth/login", {
    data: { username: user.username, password: user.password },
  });
  if (!r.ok()) throw new Error(`login ${user.username}: ${r.status()} ${await r.text()}`);
}

/** Opens a path as the given user and waits for the shell. */
export async function openAs(s: Session, user: Credentials, path = "/dashboard"): Promise<void> {
  await s.context.clearCookies();
  await loginViaApi(s, user);
  await s.page.goto(path);
  await s.page.getByRole("button", { name: "Toggle Sidebar" }).waitFor();
}

export function adminUser(): Credentials {
  return { username: "admin", password: inject("adminPassword") };
}

/**
 * Waits until the screen is still: no query in flight (`<html data-fetching="0">`, kept by the
 * app), fonts and images loaded, no running CSS animation or transition, and the scroll position
 * the same over two frames (a smooth scroll has ended). Events, not a fixed sleep.
 */
export async function settled(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      new Promise<boolean>((resolve) => {
        const still = () =>
          document.documentElement.dataset.fetching === "0" &&
          document.fonts.status === "loaded" &&
          [...document.images].every((i) => i.complete) &&
          document
            .getAnimations()
            .every((a) => a.playState !== "running" || a.effect?.getTiming().iterations === Infinity);
        const y = window.scrollY;
        requestAnimationFrame(() => requestAnimationFrame(() => resolve(still() && window.scrollY === y)));
      }),
    undefined,
    { polling: 50, timeout: 15_000 },
  );
}

/**
 * Waits until no toast is open. A hovered toaster keeps its toasts (Sonner pauses their timers), and a
 * toast can open under a pointer that stays still, which Chromium may not report as a leave when the
 * pointer then moves away (seen under load: toasts still open 30 s later, covering the next control a
 * test clicks, and each retried click hovered them again). While any is open, pass over the newest and
 * leave again, so the toaster collapses and their timers run.
 */
export async function toastsClosed(page: Page, timeoutMs = 30_000): Promise<void> {
  await page.mouse.move(0, 0);
  const toasts = page.locator("[data-sonner-toast]");
  await expect
    .poll(
      async () => {
        const open = await toasts.count();
        if (open > 0) {
          await toasts
            .last()
            .hover({ timeout: 2_000 })
            .catch(() => undefined);
          await page.mouse.move(0, 0);
        }
        return open;
      },
      { timeout: timeoutMs, interval: 1_000 },
    )
    .toBe(0);
}

/**
 * Saves a screenshot to e2e/artifacts/ (or its `dir` subfolder, e.g. "tour/light-1440") once the
 * screen has settled (animations frozen for the shot).
 */
export async function screenshot(page: Page, name: string, opts: { dir?: string } = {}): Promise<void> {
  await settled(page);
  const dir = opts.dir ? join(ARTIFACTS, opts.dir) : ARTIFACTS;
  await mkdir(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), animations: "disabled", caret: "hide" });
}
