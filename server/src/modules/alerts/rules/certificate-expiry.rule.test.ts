import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { parseCertificate } from "../../../crypto/certificate-decoder.js";
import { createSelfSignedCertificate } from "../../../crypto/certificates.js";
import { localSigner } from "../../../crypto/signer.js";
import { settingConfig } from "../../settings/settings.schema.js";
import type { RuleContext } from "../alerts.engine.js";
import type { CertificateRow } from "../alerts.repo.js";
import { certificateExpiryRule } from "./certificate-expiry.rule.js";

const DAY_MS = 86_400_000;

async function certificate(commonName: string, days: number): Promise<string> {
  const key = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const cert = await createSelfSignedCertificate({
    signer: localSigner(key.privateKey),
    subject: { commonName },
    validity: { notAfter: new Date(Date.now() + days * DAY_MS) },
  });
  return cert.pem;
}

function ctx(): RuleContext {
  return {
    now: new Date(),
    settings: settingConfig.parse({ alertCertExpiryDays: 30 }),
    once: <T>(_key: string, fn: () => Promise<T>) => fn(),
  };
}

/** The rule over an in-memory table of keys, counting the certificates it parses. */
function ruleOver(rows: CertificateRow[]) {
  const parsed: string[] = [];
  const rule = certificateExpiryRule(
    {
      certificates: async () => rows.map((r) => ({ ...r })),
      organizationKeys: async () => [],
      organizations: async () => [],
      fabricNodes: async () => [],
    },
    (pem) => {
      parsed.push(pem);
      return parseCertificate(pem);
    },
  );
  return { rule, parsed };
}

const row = (key_id: number, certificate: string): CertificateRow => ({
  key_id,
  key_name: `key ${key_id}`,
  certificate,
  expires_at: null,
  is_ca: 0,
});

describe("certificate expiry rule", () => {
  it("parses a key's certificate once, again when it changes, and forgets deleted keys", async () => {
    const [short, long, renewed] = await Promise.all([
      certificate("short", 10),
      certificate("long", 365),
      certificate("renewed", 200),
    ]);
    const rows = [row(1, short), row(2, long), row(3, "not a certificate")];
    const { rule, parsed } = ruleOver(rows);

    const first = await rule.evaluate(ctx());
    expect(parsed).toHaveLength(3);
    expect(first.map((c) => [c.data.key_id, c.active, c.data.days_left])).toEqual([
      [1, true, 9],
      [2, false, 364],
    ]);

    // Unchanged keys: the same conditions, from what the first cycle read.
    const second = await rule.evaluate(ctx());
    expect(parsed).toHaveLength(3);
    expect(second).toEqual(first);

    // Key 1 renewed: only its new certificate is parsed, and its condition carries the new serial.
    rows[0] = row(1, renewed);
    const third = await rule.evaluate(ctx());
    expect(parsed).toEqual([short, long, "not a certificate", renewed]);
    const k1 = third.find((c) => c.data.key_id === 1);
    expect(k1).toMatchObject({ active: false, key: `key:1:${parseCertificate(renewed).serialNumber}` });
    expect(k1?.key).not.toBe(first[0]?.key);

    // Key 2 deleted and later back with the same certificate: parsed again, not served from a stale entry.
    rows.splice(1, 1);
    expect((await rule.evaluate(ctx())).map((c) => c.data.key_id)).toEqual([1]);
    rows.push(row(2, long));
    expect((await rule.evaluate(ctx())).map((c) => c.data.key_id)).toEqual([1, 2]);
    expect(parsed.slice(4)).toEqual([long]);
  });
});
