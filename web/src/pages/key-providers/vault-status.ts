import type { VaultStatus } from "@/data/key-providers/vault-status-query";

export type Tone = "success" | "warning" | "destructive" | "secondary";

/** The badge of the server's state: active (unsealed) is the only state that signs. */
export function vaultStateBadge(s: VaultStatus): { label: string; tone: Tone } {
  if (s.mode === "managed" && !s.container_running && !s.vault_reachable) {
    return s.container_status === "crashed"
      ? { label: "Crashed", tone: "destructive" }
      : { label: s.container_exists ? "Stopped" : "Not started", tone: "secondary" };
  }
  if (!s.vault_reachable) return { label: "Unreachable", tone: "destructive" };
  if (!s.vault_initialized) return { label: "Uninitialized", tone: "warning" };
  if (s.sealed) return { label: "Sealed", tone: "warning" };
  if (s.vault_status === "standby") return { label: "Standby (unsealed)", tone: "success" };
  return { label: "Active (unsealed)", tone: "success" };
}

/**
 * Which buttons a managed server offers. Start also unseals a running but sealed server, so it stays
 * available until the server is up and unsealed; Stop needs a running process.
 */
export function vaultActions(s: VaultStatus | undefined): {
  managed: boolean;
  canStart: boolean;
  canStop: boolean;
  canUnseal: boolean;
} {
  if (!s || s.mode !== "managed") return { managed: false, canStart: false, canStop: false, canUnseal: false };
  const up = s.container_running && s.vault_reachable && s.vault_initialized && !s.sealed;
  // Sealed while running (sealed by hand, or an unseal that failed): the kept keys open it again.
  const canUnseal = s.container_running && s.vault_reachable && s.vault_initialized && s.sealed && s.has_unseal_keys;
  return { managed: true, canStart: !up && !s.container_running, canStop: s.container_running, canUnseal };
}

/** Yes / No for a boolean field. */
export const yesNo = (b: boolean): string => (b ? "Yes" : "No");
