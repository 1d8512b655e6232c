import { describe, expect, it } from "vitest";
import { maskAccessKeyId, parseAwsKmsConfig, storedAwsKmsConfig } from "./aws-kms-config.js";
import { kmsSpecOf } from "./aws-kms-driver.js";

describe("parseAwsKmsConfig", () => {
  const base = { awsRegion: "eu-west-1", awsAccessKeyId: "AKIAEXAMPLE1", awsSecretAccessKey: "s3cr3t" };

  it("keeps the secret key and session token out of the public config", () => {
    const { config, secrets } = parseAwsKmsConfig({
      ...base,
      awsSessionToken: "tok",
      endpointUrl: "http://127.0.0.1:5000",
    });
    expect(config).toEqual({
      awsRegion: "eu-west-1",
      awsAccessKeyId: "AKIAEXAMPLE1",
      endpointUrl: "http://127.0.0.1:5000",
      kmsKeyAliasPrefix: "chainlaunch/",
    });
    expect(JSON.stringify(config)).not.toMatch(/s3cr3t|tok/);
    expect(secrets).toEqual({ awsSecretAccessKey: "s3cr3t", awsSessionToken: "tok" });
    expect(storedAwsKmsConfig(JSON.stringify(config))).toEqual(config);
  });

  it("names each bad field", () => {
    const cases: [Record<string, unknown> | undefined, RegExp][] = [
      [undefined, /^config\.awsKms: /],
      [{}, /^config\.awsKms\.awsRegion: is required/],
      [{ awsRegion: "Europe" }, /^config\.awsKms\.awsRegion: /],
      [{ ...base, endpointUrl: "not a url" }, /^config\.awsKms\.endpointUrl: /],
      [{ ...base, endpointUrl: "http://u:p@host" }, /^config\.awsKms\.endpointUrl: must not carry credentials/],
      [{ awsRegion: "eu-west-1", awsAccessKeyId: "AKIAEXAMPLE1" }, /^config\.awsKms\.awsSecretAccessKey: /],
      [{ awsRegion: "eu-west-1", awsSecretAccessKey: "x" }, /^config\.awsKms\.awsAccessKeyId: /],
      [
        { awsRegion: "eu-west-1", endpointUrl: "http://127.0.0.1:5000" },
        /^config\.awsKms\.awsAccessKeyId: is required with endpointUrl/,
      ],
      [{ ...base, assumeRoleArn: "role" }, /^config\.awsKms\.assumeRoleArn: /],
      [{ ...base, externalId: "x1" }, /^config\.awsKms\.externalId: only applies/],
      [{ ...base, kmsKeyAliasPrefix: "aws/x" }, /^config\.awsKms\.kmsKeyAliasPrefix: "aws\/" is reserved/],
      [{ ...base, kmsKeyAliasPrefix: "a b" }, /^config\.awsKms\.kmsKeyAliasPrefix: /],
      [{ ...base, operation: "CREATE" }, /^config\.awsKms\.operation: /],
      [{ ...base, awsRegion: 5 }, /^config\.awsKms\.awsRegion: must be a string/],
      [{ ...base, awsAccessKeyId: "AKIA\r\nX-Amz-Target: x" }, /^config\.awsKms\.awsAccessKeyId: must be 1 to 128/],
      [{ ...base, awsAccessKeyId: "A".repeat(129) }, /^config\.awsKms\.awsAccessKeyId: /],
    ];
    for (const [input, message] of cases) expect(() => parseAwsKmsConfig(input)).toThrow(message);
  });

  it("takes the access key id LocalStack, moto and upstream's examples use", () => {
    for (const id of ["test", "AKIAEXAMPLE1", "local_key-1"]) {
      expect(parseAwsKmsConfig({ ...base, awsAccessKeyId: id }).config.awsAccessKeyId).toBe(id);
    }
  });

  it("masks the access key id", () => {
    expect(maskAccessKeyId("AKIAIOSFODNN7EXAMPLE")).toBe("AKIA****");
    expect(maskAccessKeyId(undefined)).toBe("");
    expect(maskAccessKeyId("test")).toBe("****");
  });
});

describe("kmsSpecOf", () => {
  it("maps curves to KMS key specs with the hash certificates name", () => {
    expect(kmsSpecOf({ algorithm: "EC", curve: "P-256" })).toMatchObject({
      keySpec: "ECC_NIST_P256",
      algorithm: "ECDSA_SHA_256",
    });
    expect(kmsSpecOf({ algorithm: "EC", curve: "P-384" })).toMatchObject({
      keySpec: "ECC_NIST_P384",
      algorithm: "ECDSA_SHA_384",
    });
    expect(kmsSpecOf({ algorithm: "EC", curve: "P-521" })).toMatchObject({
      keySpec: "ECC_NIST_P521",
      algorithm: "ECDSA_SHA_512",
    });
    expect(kmsSpecOf({ algorithm: "EC", curve: "secp256k1" })).toMatchObject({ keySpec: "ECC_SECG_P256K1" });
    expect(kmsSpecOf({ algorithm: "RSA", keySize: 4096 })).toMatchObject({
      keySpec: "RSA_4096",
      algorithm: "RSASSA_PKCS1_V1_5_SHA_256",
    });
    expect(() => kmsSpecOf({ algorithm: "ED25519" })).toThrow(/^algorithm: /);
  });
});
