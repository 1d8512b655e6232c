import { beforeEach, describe, expect, it, vi } from "vitest";
import type { KeyPage, KeyProvider } from "@/api/client";
import type { AwsKmsStatus } from "@/data/key-providers/awskms-status-query";
import { keyProviderKeys } from "@/data/key-providers/keys";
import type { VaultStatus } from "@/data/key-providers/vault-status-query";
import { keyKeys } from "@/data/keys/keys";
import { asRole, screenHtml, screenText, seed } from "@/test-support/static-screen";

// The typed client takes fetch when it is created, so the stand-in goes in before any import runs.
const http = await vi.hoisted(async () => (await import("@/test-support/fetch-mock")).installFetchMock());
const { KeyProviderAddPage } = await import("@/pages/key-providers/KeyProviderAddPage");
const { VaultProviderCreatePage } = await import("@/pages/key-providers/VaultProviderCreatePage");
const { AwsKmsProviderCreatePage } = await import("@/pages/key-providers/AwsKmsProviderCreatePage");
const { KeyProviderDetailPage } = await import("@/pages/key-providers/KeyProviderDetailPage");
const { VaultStatusView } = await import("@/pages/key-providers/VaultStatusCard");
const { AwsKmsStatusView } = await import("@/pages/key-providers/AwsKmsStatusCard");
const { vaultActions, vaultStateBadge } = await import("@/pages/key-providers/vault-status");
const { settingsRows } = await import("@/pages/key-providers/provider-settings");
const { startVault, stopVault } = await import("@/data/key-providers/vault-operation-mutations");
const { fetchVaultStatus } = await import("@/data/key-providers/vault-status-query");
const { createKeyProvider } = await import("@/data/key-providers/key-provider-create-mutation");

const vaultProvider: KeyProvider = {
  id: 7,
  name: "bao-e2e",
  type: "VAULT",
  isDefault: 0,
  config: {
    mode: "managed",
    operation: "CREATE",
    address: "https://127.0.0.1:50010",
    transitMount: "transit",
    kvMount: "secret",
    port: 50010,
    shares: 3,
    threshold: 2,
  },
  createdAt: "2026-11-26T05:00:00Z",
};

const running: VaultStatus = {
  provider_id: 7,
  provider_name: "bao-e2e",
  mode: "managed",
  address: "https://127.0.0.1:50010",
  port: "50010",
  data_directory: "/data/vault/7",
  data_exists: true,
  has_unseal_keys: true,
  vault_reachable: true,
  vault_initialized: true,
  sealed: false,
  vault_status: "active",
  vault_status_code: 200,
  vault_version: "2.7.2",
  cluster_id: "c1",
  cluster_name: "vault-cluster",
  vault_health_details: {},
  docker_available: false,
  container_exists: true,
  container_running: true,
  container_status: "running",
  container_id: "4242",
  container_full_id: "4242",
  container_name: "openbao-7",
  container_image: "/usr/local/bin/bao",
  container_created: "2026-11-26T05:00:00Z",
  container_started_at: "2026-11-26T05:01:00Z",
  container_finished_at: "",
  container_error: "",
  container_restart_count: 0,
  container_ports: {},
  default_cert_ttl: "",
  default_ca_cert_ttl: "",
  max_cert_ttl: "",
  max_ca_cert_ttl: "",
};
const stopped: VaultStatus = {
  ...running,
  vault_reachable: false,
  vault_initialized: false,
  sealed: true,
  vault_status: "stopped",
  vault_version: "",
  container_running: false,
  container_status: "stopped",
  container_id: "",
};
const crashed: VaultStatus = { ...stopped, container_status: "crashed", container_error: "exit code 1: bind: in use" };
const sealedUp: VaultStatus = { ...running, sealed: true, vault_status: "sealed" };
const external: VaultStatus = {
  ...stopped,
  mode: "external",
  address: "https://vault.example.com",
  container_exists: false,
  container_status: "not_created",
  error: "connect ECONNREFUSED",
};

const keyPage: KeyPage = {
  items: [
    {
      id: 31,
      name: "vault-p256",
      description: null,
      algorithm: "EC",
      curve: "P-256",
      keySize: null,
      format: "PEM",
      publicKey: "-----BEGIN PUBLIC KEY-----",
      certificate: null,
      status: "active",
      createdAt: "2026-11-26T05:02:00Z",
      expiresAt: null,
      lastRotatedAt: null,
      sha256Fingerprint: "ab",
      sha1Fingerprint: "cd",
      ethereumAddress: null,
      signingKeyID: null,
      provider: { id: 7, name: "bao-e2e", type: "VAULT" },
      providerMetadata: {},
      kmsKeyId: "transit/keys/k31",
      canUseInNodes: true,
      generatedLocally: false,
      importedToProvider: false,
      isExportable: false,
      wasExported: false,
    },
  ],
  page: 1,
  pageSize: 10,
  totalItems: 1,
} as KeyPage;

const admin = asRole("admin");
beforeEach(() => http.reset());

describe("Add Key Provider", () => {
  it("offers Vault and AWS KMS as ready choices, not as coming soon", () => {
    const text = screenText(<KeyProviderAddPage />, "/settings/providers/add", "/settings/providers/add", admin);
    expect(text).not.toContain("Coming soon");
    const html = screenHtml(<KeyProviderAddPage />, "/settings/providers/add", "/settings/providers/add", admin);
    expect(html.match(/role="radio"/g)).toHaveLength(3);
    expect(html).not.toContain('aria-disabled="true"');
    expect(html).toMatch(/role="radio" aria-checked="false" aria-label="HashiCorp Vault"/);
    expect(html).toMatch(/role="radio" aria-checked="false" aria-label="AWS KMS"/);
  });
});

describe("Create Vault Provider", () => {
  const path = "/settings/providers/create/vault";

  it("starts in external mode with a password input for the token", () => {
    const html = screenHtml(<VaultProviderCreatePage />, path, path, admin);
    expect(html).toMatch(/type="password"[^>]*id="vault-token"/);
    const text = screenText(<VaultProviderCreatePage />, path, path, admin);
    for (const label of [
      "Name",
      "Address",
      "Token",
      "CA certificate (PEM)",
      "Namespace",
      "Transit mount",
      "KV mount",
    ]) {
      expect(text).toContain(label);
    }
    expect(text).toContain("Managed OpenBao");
    expect(text).toContain("Make this the default provider");
    // The managed fields show once Managed is chosen.
    expect(text).not.toContain("Unseal key shares");
  });

  it("is for admins and managers only", () => {
    expect(screenText(<VaultProviderCreatePage />, path, path, asRole("viewer"))).not.toContain("Address");
  });
});

describe("Create AWS KMS Provider", () => {
  it("has every setting, with the secret and session token as password inputs", () => {
    const path = "/settings/providers/create/aws-kms";
    const text = screenText(<AwsKmsProviderCreatePage />, path, path, admin);
    for (const label of [
      "Region",
      "Access key ID",
      "Secret access key",
      "Session token",
      "Role to assume",
      "External ID",
      "Endpoint URL",
      "Alias prefix",
    ]) {
      expect(text).toContain(label);
    }
    const html = screenHtml(<AwsKmsProviderCreatePage />, path, path, admin);
    expect(html).toMatch(
      /type="password"[^>]*id="kms-awsSecretAccessKey"|id="kms-awsSecretAccessKey"[^>]*type="password"/,
    );
    expect(html).toMatch(/type="password"[^>]*id="kms-awsSessionToken"|id="kms-awsSessionToken"[^>]*type="password"/);
  });
});

describe("Vault status card", () => {
  it("shows a running managed server as active and unsealed, with its process", () => {
    const text = screenText(<VaultStatusView status={running} />, "/", "/");
    expect(text).toContain("Active (unsealed)");
    expect(text).toMatch(/Reachable Yes Initialized Yes Sealed No Version 2\.7\.2/);
    expect(text).toContain("https://127.0.0.1:50010");
    expect(text).toMatch(/Process running PID 4242/);
    expect(text).toMatch(/Restarts 0/);
    expect(vaultActions(running)).toEqual({ managed: true, canStart: false, canStop: true, canUnseal: false });
  });

  it("lets a stopped server start and a sealed running one unseal, and shows a crash's last error", () => {
    expect(vaultStateBadge(stopped)).toEqual({ label: "Stopped", tone: "secondary" });
    expect(vaultActions(stopped)).toEqual({ managed: true, canStart: true, canStop: false, canUnseal: false });
    expect(vaultStateBadge(sealedUp)).toEqual({ label: "Sealed", tone: "warning" });
    // Running but sealed: Start would be refused (it runs); the kept unseal keys open it.
    expect(vaultActions(sealedUp)).toEqual({ managed: true, canStart: false, canStop: true, canUnseal: true });
    expect(vaultActions({ ...sealedUp, has_unseal_keys: false }).canUnseal).toBe(false);
    const text = screenText(<VaultStatusView status={crashed} />, "/", "/");
    expect(text).toContain("Crashed");
    expect(text).toContain("Last error exit code 1: bind: in use");
  });

  it("shows an external server without process fields or buttons", () => {
    expect(vaultStateBadge(external)).toEqual({ label: "Unreachable", tone: "destructive" });
    expect(vaultActions(external)).toEqual({ managed: false, canStart: false, canStop: false, canUnseal: false });
    const text = screenText(<VaultStatusView status={external} />, "/", "/");
    expect(text).toContain("connect ECONNREFUSED");
    expect(text).not.toContain("PID");
  });
});

describe("AWS KMS status card", () => {
  it("shows reachability, account and the connection error", () => {
    const base: AwsKmsStatus = {
      provider_id: 8,
      provider_name: "kms",
      region: "us-east-1",
      endpoint: "http://127.0.0.1:5000",
      access_key_id: "AKIA****TEST",
      has_credentials: true,
      account_id: "123456789012",
      kms_reachable: true,
      service_available: true,
      kms_status: "available",
      connection_error: "",
      key_count: 2,
      sdk_version: "aws-sdk-js v3",
    };
    const ok = screenText(<AwsKmsStatusView status={base} />, "/", "/");
    expect(ok).toMatch(/State Available Region us-east-1 Account 123456789012 Keys 2/);
    const down = screenText(
      <AwsKmsStatusView
        status={{ ...base, kms_reachable: false, kms_status: "unavailable", connection_error: "ECONNREFUSED" }}
      />,
      "/",
      "/",
    );
    expect(down).toContain("unavailable");
    expect(down).toContain("ECONNREFUSED");
  });
});

describe("Key provider page", () => {
  const route = "/settings/providers/:id";
  const page = (...extra: Parameters<typeof screenText>[3][]): string =>
    screenText(
      <KeyProviderDetailPage />,
      route,
      "/settings/providers/7",
      admin,
      seed(keyProviderKeys.detail(7), vaultProvider),
      seed(keyProviderKeys.vaultStatus(7), running),
      ...extra,
    );

  it("lists the Vault settings, never a secret, and the status card with Start and Stop", () => {
    const text = page();
    expect(text).toMatch(
      /Mode Managed OpenBao Certificate authorities Transit keys Address https:\/\/127\.0\.0\.1:50010 Transit mount transit KV mount secret/,
    );
    expect(text).toMatch(/Unseal key shares 3 Unseal threshold 2/);
    expect(text).toContain("are never shown");
    expect(text).toContain("Vault status");
    expect(text).toContain("Active (unsealed)");
    const html = screenHtml(
      <KeyProviderDetailPage />,
      route,
      "/settings/providers/7",
      admin,
      seed(keyProviderKeys.detail(7), vaultProvider),
      seed(keyProviderKeys.vaultStatus(7), running),
    );
    const buttons = html.match(/<button[^>]*>.*?<\/button>/g) ?? [];
    const button = (label: string): string => buttons.find((b) => b.endsWith(` ${label}</button>`)) ?? "";
    // Running and unsealed: nothing to start, but it can be stopped.
    expect(button("Start")).toContain('disabled=""');
    expect(button("Stop")).not.toBe("");
    expect(button("Stop")).not.toContain('disabled=""');
  });

  it("never lists secret fields even if a config carried them", () => {
    const leaky = { ...vaultProvider, config: { ...vaultProvider.config, token: "s.SECRET", rootToken: "r" } };
    expect(settingsRows(leaky).map((r) => r.value)).not.toContain("s.SECRET");
    const kms: KeyProvider = {
      ...vaultProvider,
      type: "AWS_KMS",
      config: { awsKms: { awsRegion: "eu-west-1", awsSecretAccessKey: "x", kmsKeyAliasPrefix: "cl/" } },
    };
    expect(settingsRows(kms)).toEqual([
      { label: "Region", value: "eu-west-1" },
      { label: "Alias prefix", value: "cl/" },
    ]);
  });

  it("shows the keys it holds with their provider, links to them, and the note on node keys", () => {
    const text = page(seed(keyKeys.list({ page: 1, pageSize: 10, providerId: 7 }), keyPage));
    expect(text).toContain("Keys in this provider");
    expect(text).toMatch(/vault-p256 EC P-256 bao-e2e/);
    expect(text).toContain("Fabric nodes' own signing and TLS keys are always kept in the database provider");
    expect(text).toContain("Create key");
    const html = screenHtml(
      <KeyProviderDetailPage />,
      route,
      "/settings/providers/7",
      admin,
      seed(keyProviderKeys.detail(7), vaultProvider),
      seed(keyKeys.list({ page: 1, pageSize: 10, providerId: 7 }), keyPage),
    );
    expect(html).toContain('href="/settings/keys/31"');
  });

  it("hides the page from viewers", () => {
    expect(
      screenText(
        <KeyProviderDetailPage />,
        route,
        "/settings/providers/7",
        asRole("viewer"),
        seed(keyProviderKeys.detail(7), vaultProvider),
      ),
    ).not.toContain("Vault status");
  });
});

describe("key provider calls", () => {
  it("starts, stops and reads the status of a Vault provider by id", async () => {
    http.respond("POST", "/key-providers/7/vault/start", 200, { success: true, message: "started and unsealed" });
    http.respond("POST", "/key-providers/7/vault/stop", 200, { success: true, message: "stopped" });
    http.respond("GET", "/key-providers/7/vault/status", 200, running);
    await expect(startVault(7)).resolves.toEqual({ success: true, message: "started and unsealed" });
    await expect(stopVault(7)).resolves.toMatchObject({ success: true });
    await expect(fetchVaultStatus(7)).resolves.toMatchObject({ sealed: false, container_id: "4242" });
    expect(http.calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      "POST /key-providers/7/vault/start",
      "POST /key-providers/7/vault/stop",
      "GET /key-providers/7/vault/status",
    ]);
  });

  it("surfaces a missing binary as the server words it", async () => {
    const message = "OpenBao binary not found: install it with `make start` (VAULT=1) or set CHAINLAUNCH_BAO";
    http.respond("POST", "/key-providers/7/vault/start", 400, { error: "INVALID_INPUT", message, requestId: "r" });
    await expect(startVault(7)).rejects.toMatchObject({ status: 400, message });
  });

  it("posts the form's body to /key-providers", async () => {
    http.respond("POST", "/key-providers", 201, vaultProvider);
    const body = {
      name: "bao-e2e",
      type: "VAULT" as const,
      config: { vault: { operation: "CREATE", shares: 3, threshold: 2 } },
    };
    await expect(createKeyProvider(body)).resolves.toMatchObject({ id: 7 });
    expect(http.calls[0]).toMatchObject({ method: "POST", path: "/key-providers", body });
  });
});
