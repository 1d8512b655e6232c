import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCall } from "../support/api.js";
import { openAs, openSession, type Session } from "../support/browser.js";
import { USERS } from "../support/users.js";

describe("notifications and permissions", () => {
  let s: Session;
  beforeAll(async () => {
    s = await openSession();
    // Counts start at zero: events of other specs on the shared server (a network shared by the
    // federation spec, say) notify every user, the manager too.
    for (;;) {
      const page = await apiCall<{ notifications: { id: number }[] }>(
        s.baseUrl,
        USERS.manager,
        "GET",
        "/user-notifications?limit=100",
      );
      if (page.data.notifications.length === 0) break;
      for (const n of page.data.notifications) {
        await apiCall(s.baseUrl, USERS.manager, "DELETE", `/user-notifications/${n.id}`);
      }
    }
  });
  afterAll(async () => {
    await s.close();
  });

  it("delivers a server notification as a toast and bumps the badge", async () => {
    await openAs(s, USERS.manager);
    const bell = s.page.getByRole("button", { name: /^Notifications/ });
    await bell.waitFor();
    // The server emits only to open websockets: wait for the bell's to open.
    await s.page.locator('button[data-live="open"]').waitFor();
    const r = await apiCall(s.baseUrl, USERS.manager, "POST", "/user-notifications/test", {
      event_type: "backup.success",
      event_data: { target_name: "nightly-s3", size: 3145728 },
    });
    expect(r.status).toBe(201);
    const toast = s.page.locator("[data-toast-kind]").filter({ hasText: "Backup Completed" });
    await toast.waitFor();
    expect(await toast.innerText()).toContain("3.00 MB");
    await toast.getByRole("button", { name: "View Backups" }).waitFor();
    await s.page.getByTestId("notification-badge").waitFor();
    await expectCountsOfServer(s);
  });

  it("lists it in the dropdown and marks it read", async () => {
    await s.page.getByRole("button", { name: /^Notifications/ }).click();
    await expectCountsOfServer(s);
    await s.page.getByRole("button", { name: 'Mark "Backup Completed" as read' }).click();
    await s.page.getByRole("button", { name: 'Mark "Backup Completed" as unread' }).waitFor();
    expect((await own(s, "backup.success"))?.is_read).toBe(true);
    await expectCountsOfServer(s);
    await s.page.getByRole("button", { name: 'Mark "Backup Completed" as unread' }).click();
    await s.page.getByRole("button", { name: 'Mark "Backup Completed" as read' }).waitFor();
    expect((await own(s, "backup.success"))?.is_read).toBe(false);
    await expectCountsOfServer(s);
    await s.page.getByRole("button", { name: "Mark all read" }).click();
    await s.page.getByRole("button", { name: 'Mark "Backup Completed" as unread' }).waitFor();
    await expectCountsOfServer(s);
    await s.page.keyboard.press("Escape");
  });

  it("marks an item read and follows its link when clicked", async () => {
    await apiCall(s.baseUrl, USERS.manager, "POST", "/user-notifications/test", {
      event_type: "backup.failure",
      event_data: { target_name: "offsite", reason: "bucket not found" },
    });
    await expect.poll(async () => (await own(s, "backup.failure"))?.is_read).toBe(false);
    await expectCountsOfServer(s);
    await s.page.getByRole("button", { name: /^Notifications/ }).click();
    await s.page.getByTestId("notification-list").first().getByText("Backup Failed").click();
    await s.page.waitForURL("**/settings/backups");
    await expect.poll(async () => (await own(s, "backup.failure"))?.is_read).toBe(true);
    await expectCountsOfServer(s);
  });

  it("shows '9+' above nine unread", async () => {
    for (let i = 0; i < 10; i++) {
      await apiCall(s.baseUrl, USERS.manager, "POST", "/user-notifications/test", { event_type: "node.recovery" });
    }
    await s.page.getByTestId("notification-badge").filter({ hasText: "9+" }).waitFor();
  });

  it("shows 'Permission Denied' when a viewer's change is refused", async () => {
    await openAs(s, USERS.viewer, "/settings/network");
    const host = s.page.getByLabel("External host or IP");
    await host.waitFor();
    await host.fill("10.0.0.5");
    await s.page.getByRole("button", { name: "Save changes" }).click();
    const toast = s.page.locator("[data-toast-kind=error]").filter({ hasText: "Permission Denied" });
    await toast.waitFor();
    expect(await toast.innerText()).toContain("You do not have permission to perform this action.");
  });
});

interface Note {
  id: number;
  event_type: string;
  is_read: boolean;
}

/** This spec's own notification of a type (the newest), as the server has it. */
async function own(s: Session, eventType: string): Promise<Note | undefined> {
  const r = await apiCall<{ data: Note[] }>(s.baseUrl, USERS.manager, "GET", `/user-notifications/type/${eventType}`);
  return r.data.data[0];
}

/**
 * The bell shows the server's counts: the badge and the dropdown's tabs (when open) equal what the API says.
 * Compared with the server rather than fixed numbers because another spec's event (a node's recovery, a shared
 * network) notifies every user, the manager too, and may arrive at any time; the page must show those as well.
 */
async function expectCountsOfServer(s: Session): Promise<void> {
  await expect
    .poll(
      async () => {
        const all = await apiCall<{ total: number }>(s.baseUrl, USERS.manager, "GET", "/user-notifications?limit=1");
        const unread = await apiCall<{ count: number }>(
          s.baseUrl,
          USERS.manager,
          "GET",
          "/user-notifications/unread/count",
        );
        const total = all.data.total;
        const count = unread.data.count;
        const badge = count === 0 ? null : count > 9 ? "9+" : String(count);
        const shown = s.page.getByTestId("notification-badge");
        const badgeShown = (await shown.count()) === 0 ? null : (await shown.innerText()).trim();
        const tabs = s.page.getByRole("tab", { name: /^(All|Unread|Read) \(\d+\)$/ });
        const tabTexts = (await tabs.count()) === 0 ? null : (await tabs.allInnerTexts()).slice(0, 3).join("|");
        const wantTabs = `All (${total})|Unread (${count})|Read (${total - count})`;
        return badgeShown === badge && (tabTexts === null || tabTexts === wantTabs)
          ? "matches"
          : `server ${wantTabs} badge ${badge}; page ${tabTexts} badge ${badgeShown}`;
      },
      { timeout: 15_000 },
    )
    .toBe("matches");
}
