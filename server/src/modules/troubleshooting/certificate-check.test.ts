import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { opensslIn } from "../../test-support/openssl.js";
import { validateCertificate } from "./certificate-check.js";

const run = promisify(execFile);

/**
 * validate-certificate against `openssl verify`: the certificates are made by the openssl CLI (a
 * root, an intermediate, leaves that are valid, expired, for another host, issued by a non-CA, and
 * issued by an impostor root of the same name), and for each our verdict must be openssl's.
 */
describe("validate-certificate agrees with openssl verify", () => {
  let dir: string;
  const pem: Record<string, string> = {};

  /** openssl's verdict: exit 0 or the error line. */
  async function opensslVerify(leafName: string, extra: string[] = []): Promise<{ ok: boolean; out: string }> {
    try {
      const r = await run(
        "openssl",
        ["verify", "-CAfile", "root.pem", "-untrusted", "inter.pem", ...extra, `${leafName}.pem`],
        { cwd: dir },
      );
      return { ok: true, out: r.stdout };
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string };
      return { ok: false, out: `${e.stdout ?? ""}${e.stderr ?? ""}` };
    }
  }

  const tlsExt =
    "basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth,clientAuth\nsubjectAltName=DNS:peer0.org1.example.com,DNS:localhost,IP:127.0.0.1\n";

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "cl-certcheck-"));
    const o = opensslIn(dir);
    const subject = (cn: string) => `/O=Org1/CN=${cn}`;
    const caExt = "basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n";
    await o.selfSignedCa("root", subject("tlsca.org1.example.com"));
    await o.issue("inter", subject("inter.org1.example.com"), "root", caExt);
    await o.issue("good", subject("peer0.org1.example.com"), "inter", tlsExt);
    await o.issue("expired", subject("peer0.org1.example.com"), "inter", tlsExt, "-1");
    await o.issue("notca", subject("peer1.org1.example.com"), "good", tlsExt);
    // An impostor root with the very same name signs a leaf: names match, signatures don't.
    await o.selfSignedCa("impostor", subject("inter.org1.example.com"));
    await o.issue("forged", subject("peer0.org1.example.com"), "impostor", tlsExt);
    for (const n of ["root", "inter", "good", "expired", "notca", "forged"]) pem[n] = await o.read(`${n}.pem`);
  }, 60_000);
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const check = (name: string, dns_names?: string[]) =>
    validateCertificate({
      certificate: pem[name]! + pem.inter!,
      root_ca: pem.root!,
      ...(dns_names ? { dns_names } : {}),
    });

  it("a valid chain: valid for openssl and for us, with the chain and SANs", async () => {
    expect((await opensslVerify("good")).ok).toBe(true);
    const r = check("good", ["peer0.org1.example.com", "127.0.0.1"]);
    expect(r.errors).toEqual([]);
    expect(r).toMatchObject({
      valid: true,
      is_ca: false,
      dns_names: ["peer0.org1.example.com", "localhost"],
      ip_addresses: ["127.0.0.1"],
    });
    expect(r.chain).toEqual([
      expect.stringContaining("peer0.org1.example.com"),
      expect.stringContaining("inter.org1.example.com"),
      expect.stringContaining("tlsca.org1.example.com"),
    ]);
    expect(r.key_usage).toEqual(expect.arrayContaining(["digitalSignature", "serverAuth", "clientAuth"]));
  });

  it("an expired certificate: both refuse it, and we say when it expired", async () => {
    const o = await opensslVerify("expired");
    expect(o.ok).toBe(false);
    expect(o.out).toMatch(/expired/);
    const r = check("expired");
    expect(r.valid).toBe(false);
    expect(r.errors.join("\n")).toMatch(/the certificate expired on \d{4}-/);
  });

  it("a wrong SAN: both refuse the host, and we say it in Fabric terms", async () => {
    const o = await opensslVerify("good", ["-verify_hostname", "peer1.org1.example.com"]);
    expect(o.ok).toBe(false);
    expect(o.out).toMatch(/hostname mismatch/i);
    const r = check("good", ["peer1.org1.example.com"]);
    expect(r.valid).toBe(false);
    expect(r.errors[0]).toMatch(
      /^this TLS cert has no SAN for peer1\.org1\.example\.com \(its SANs: peer0\.org1\.example\.com, localhost, 127\.0\.0\.1\)/,
    );
  });

  it("a certificate issued by a non-CA: both refuse it", async () => {
    await writeFile(join(dir, "chain-notca.pem"), pem.good! + pem.inter!);
    let out = "";
    try {
      await run("openssl", ["verify", "-CAfile", "root.pem", "-untrusted", "chain-notca.pem", "notca.pem"], {
        cwd: dir,
      });
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string };
      out = `${e.stdout ?? ""}${e.stderr ?? ""}`;
    }
    expect(out).toMatch(/invalid CA certificate|not a CA/i);
    const r = validateCertificate({ certificate: pem.notca! + pem.good! + pem.inter!, root_ca: pem.root! });
    expect(r.valid).toBe(false);
    expect(r.errors.join("\n")).toMatch(/is not a CA \(basicConstraints CA:FALSE\)/);
  });

  it("a leaf from an impostor CA of the same name: both refuse it", async () => {
    expect((await opensslVerify("forged")).ok).toBe(false);
    const r = check("forged");
    expect(r.valid).toBe(false);
    expect(r.errors[0]).toMatch(/does not verify with the key of .*another CA of the same name/);
  });

  it("without a root: self-signed is checked on its own, others get a warning; garbage names the field", () => {
    const self = validateCertificate({ certificate: pem.root! });
    expect(self).toMatchObject({ valid: true, is_ca: true });
    expect(self.warnings.join()).toMatch(/self-signed/);
    const leafOnly = validateCertificate({ certificate: pem.good! });
    expect(leafOnly.warnings.join()).toMatch(/was not checked/);
    expect(() => validateCertificate({ certificate: "hello" })).toThrow(/^certificate: no PEM certificate/);
    expect(() => validateCertificate({ certificate: pem.good!, root_ca: "x" })).toThrow(/^root_ca: /);
  });
});
