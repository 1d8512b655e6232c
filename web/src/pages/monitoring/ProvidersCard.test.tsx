import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import type { Role } from "@/api/client";
import { authKeys } from "@/data/auth/keys";
import { providerKeys, type NotificationProvider } from "@/data/notification-providers/keys";
import { ProvidersCard } from "@/pages/monitoring/ProvidersCard";

const provider = (over: Partial<NotificationProvider>): NotificationProvider => ({
  id: 1,
  name: "ops-mail",
  type: "SMTP",
  config: {},
  isDefault: false,
  notifyNodeDowntime: false,
  notifyBackupSuccess: false,
  notifyBackupFailure: false,
  notifyS3ConnIssue: false,
  notifyCertExpiry: false,
  notifyPeerLag: false,
  notifyRaftHealth: false,
  lastTestAt: null,
  lastTestStatus: null,
  lastTestMessage: null,
  createdAt: "",
  updatedAt: "",
  ...over,
});

/** The card's markup with the providers list and the signed-in user already in the cache. */
function markup(list: NotificationProvider[] | undefined, role: Role = "admin"): string {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  qc.setQueryData(authKeys.me(), { id: 1, username: "u", role });
  if (list) qc.setQueryData(providerKeys.list(), list);
  return renderToStaticMarkup(
    <QueryClientProvider client={qc}>
      <MemoryRouter>
        <ProvidersCard />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}
const render = (list: NotificationProvider[], role: Role = "admin"): string =>
  markup(list, role)
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ");

describe("ProvidersCard", () => {
  it("lists providers with their type, routed events and last test", () => {
    const text = render([
      provider({ notifyNodeDowntime: true, notifyBackupFailure: true, lastTestStatus: "success", isDefault: true }),
      provider({ id: 2, name: "ops-hook", type: "WEBHOOK", lastTestStatus: "failure" }),
    ]);
    expect(text).toContain("ops-mail");
    expect(text).toContain("Node down / recovered, Backup failed");
    expect(text).toContain("Email");
    expect(text).toContain("Default");
    expect(text).toContain("Test passed");
    expect(text).toContain("ops-hook");
    expect(text).toContain("Webhook");
    expect(text).toContain("No events");
    expect(text).toContain("Test failed");
    expect(text).toContain("New provider");
  });

  it("shows the empty state, and no New provider button to viewers", () => {
    const text = render([], "viewer");
    expect(text).toContain("No notification providers");
    expect(text).not.toContain("New provider");
  });

  it("shows loading rows while the list loads", () => {
    expect(markup(undefined)).toContain('aria-busy="true"');
  });
});
