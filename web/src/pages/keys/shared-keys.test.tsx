import { describe, expect, it } from "vitest";
import { federationKeys } from "@/data/federation/keys";
import { sharingKeys } from "@/data/sharing/keys";
import type { SharedKey } from "@/data/sharing/types";
import { isExpired, parseShareExpiry, sharedKeyType } from "@/pages/keys/shared-key-view";
import { ShareKeyButton } from "@/pages/keys/ShareKeyDialog";
import { SharedKeysCard } from "@/pages/keys/SharedKeysCard";
import { peerB } from "@/test-support/federation-fixtures";
import { failing, screenHtml, screenText, seed, type Seed } from "@/test-support/static-screen";

const key: SharedKey = {
  share_id: "ks-1",
  key_id: "4",
  name: "validator-1",
  algorithm: "EC",
  curve: "secp256k1",
  key_size: null,
  format: "PEM",
  public_key: "-----BEGIN PUBLIC KEY-----\nMFYw\n-----END PUBLIC KEY-----",
  ethereum_address: "0xabc",
  shared_by: 7,
  shared_by_node_id: "cl-bbbb",
  shared_at: "2026-11-25T10:00:00Z",
  expires_at: null,
  status: "active",
  metadata: {},
};
/** The card's first page without expired keys, as it asks for it. */
const firstPage = sharingKeys.keyList({ limit: 20, offset: 0, expired: "false" });

describe("shared key view", () => {
  it("labels the key type", () => {
    expect(sharedKeyType(key)).toBe("EC secp256k1");
    expect(sharedKeyType({ algorithm: "RSA", curve: null, key_size: 2048 })).toBe("RSA 2048");
    expect(sharedKeyType({ algorithm: "ED25519", curve: null, key_size: null })).toBe("ED25519");
  });

  it("knows when a share has expired", () => {
    const now = Date.parse("2026-11-25T12:00:00Z");
    expect(isExpired(key, now)).toBe(false);
    expect(isExpired({ expires_at: "2026-11-25T11:00:00Z" }, now)).toBe(true);
    expect(isExpired({ expires_at: "2026-11-26T11:00:00Z" }, now)).toBe(false);
  });

  it("reads the optional expiry day as the end of that day, refusing past days and bad dates", () => {
    const now = new Date(2026, 10, 25, 12).getTime();
    expect(parseShareExpiry("", now)).toEqual({ expiresAt: undefined });
    const r = parseShareExpiry("2026-12-01", now);
    expect("expiresAt" in r && r.expiresAt).toBe(new Date(2026, 11, 1, 23, 59, 59).toISOString());
    expect(parseShareExpiry("2026-11-25", now)).toEqual({
      expiresAt: new Date(2026, 10, 25, 23, 59, 59).toISOString(),
    });
    expect(parseShareExpiry("2026-11-24", now)).toEqual({ error: "Choose a day after today, or leave it empty" });
    expect(parseShareExpiry("2026-02-31", now)).toEqual({ error: "Enter a date" });
    expect(parseShareExpiry("tomorrow", now)).toEqual({ error: "Enter a date" });
  });
});

describe("Keys shared with me", () => {
  const card = (...s: Seed[]): string => screenText(<SharedKeysCard />, "/", "/", ...s);

  it("shows loading, empty and the server's error", () => {
    expect(card()).toContain("Loading");
    expect(card(seed(firstPage, { keys: [], total: 0 }))).toContain("No keys shared with this console");
    expect(card(failing(firstPage))).toContain("database is locked");
  });

  it("lists each key with its type, sender, dates, status and a copy button", () => {
    const text = card(seed(firstPage, { keys: [key], total: 1 }));
    expect(text).toContain("validator-1");
    expect(text).toContain("EC secp256k1");
    expect(text).toContain("cl-bbbb");
    expect(text).toContain("Never");
    expect(text).toContain("active");
    expect(text).toContain("Copy public key");
    expect(text).toContain("1 key · page 1 of 1");
    const expired = card(seed(firstPage, { keys: [{ ...key, status: "expired" }], total: 1 }));
    expect(expired).toContain("expired");
    const html = screenHtml(<SharedKeysCard />, "/", "/", seed(firstPage, { keys: [key], total: 1 }));
    expect(html).toContain('href="/connect/cl-bbbb"');
  });
});

describe("Share public key action", () => {
  const button = <ShareKeyButton keyId={4} keyName="validator-1" />;

  it("is disabled with a link to Connect without connections, enabled with one", () => {
    const none = screenHtml(button, "/", "/", seed(federationKeys.peers(), []));
    expect(none).toMatch(/<button[^>]*disabled=""/);
    expect(none).toContain('href="/connect"');
    const one = screenHtml(button, "/", "/", seed(federationKeys.peers(), [peerB]));
    expect(one).not.toContain('disabled=""');
    expect(one).toContain("Share public key");
  });
});
