import { execFile } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/**
 * P-256 certificates made by the openssl CLI in `dir` (files `<name>.key`, `<name>.pem`), for tests
 * that compare the console's certificate handling with a tool nobody here wrote.
 */
export function opensslIn(dir: string) {
  const ossl = (...args: string[]) => run("openssl", args, { cwd: dir });
  const newKey = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"];
  return {
    /** A self-signed CA with keyCertSign (and whatever else `keyUsage` lists). */
    async selfSignedCa(name: string, subject: string, opts: { days?: string; keyUsage?: string } = {}) {
      await ossl(
        "req",
        "-x509",
        ...newKey,
        "-keyout",
        `${name}.key`,
        "-out",
        `${name}.pem`,
        "-subj",
        subject,
        "-days",
        opts.days ?? "365",
        "-addext",
        "basicConstraints=critical,CA:TRUE",
        "-addext",
        `keyUsage=critical,${opts.keyUsage ?? "keyCertSign,cRLSign"}`,
      );
    },
    /** A certificate for a new key, signed by `signer`'s key, with the extensions in `ext` (openssl extfile lines). */
    async issue(name: string, subject: string, signer: string, ext: string, days = "30") {
      await ossl("req", "-new", ...newKey, "-keyout", `${name}.key`, "-out", `${name}.csr`, "-subj", subject);
      await writeFile(join(dir, `${name}.ext`), ext);
      await ossl(
        "x509",
        "-req",
        "-in",
        `${name}.csr`,
        "-CA",
        `${signer}.pem`,
        "-CAkey",
        `${signer}.key`,
        "-days",
        days,
        "-out",
        `${name}.pem`,
        "-extfile",
        `${name}.ext`,
      );
    },
    read: (file: string) => readFile(join(dir, file), "utf8"),
  };
}
