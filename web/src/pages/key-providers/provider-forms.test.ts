import { describe, expect, it } from "vitest";
import { ApiError } from "@/api/errors";
import { formErrorsFrom } from "@/lib/field-errors";
import {
  AWS_KMS_FORM_DEFAULTS,
  AWS_KMS_FORM_FIELDS,
  toAwsKmsBody,
  validateAwsKmsForm,
} from "@/pages/key-providers/aws-kms-form";
import {
  toVaultBody,
  validateVaultForm,
  VAULT_FORM_DEFAULTS,
  VAULT_FORM_FIELDS,
} from "@/pages/key-providers/vault-form";

const external = {
  ...VAULT_FORM_DEFAULTS,
  name: " prod-vault ",
  address: "https://vault.example.com:8200/",
  token: " s.abc ",
};
const managed = { ...VAULT_FORM_DEFAULTS, name: "bao", mode: "managed" as const };

describe("Vault provider form", () => {
  it("asks for a name, an http(s) address and a token in external mode", () => {
    expect(validateVaultForm({ ...VAULT_FORM_DEFAULTS })).toEqual({
      name: "Name is required",
      address: "Address is required",
      token: "A Vault token is required",
    });
    expect(validateVaultForm({ ...external, address: "vault:8200", caCert: "junk", kvMount: "a/b" })).toEqual({
      address: "Give http(s)://host:port",
      caCert: "Paste a PEM certificate",
      kvMount: "Letters, digits, - and _ only",
    });
    expect(validateVaultForm(external)).toEqual({});
  });

  it("checks the managed port, shares and threshold, and ignores the external fields", () => {
    expect(validateVaultForm(managed)).toEqual({});
    expect(validateVaultForm({ ...managed, port: "80", shares: "0", threshold: "x" })).toEqual({
      port: "A port from 1024 to 65534",
      shares: "From 1 to 100",
      threshold: "At least 1",
    });
    expect(validateVaultForm({ ...managed, shares: "3", threshold: "4" })).toEqual({
      threshold: "At most the number of key shares",
    });
  });

  it("sends IMPORT with the address and token, leaving empty options out", () => {
    expect(toVaultBody({ ...external, isDefault: true, namespace: "admin", kvMount: "" })).toEqual({
      name: "prod-vault",
      type: "VAULT",
      isDefault: 1,
      config: {
        vault: {
          operation: "IMPORT",
          address: "https://vault.example.com:8200",
          token: "s.abc",
          namespace: "admin",
          transitMount: "transit",
        },
      },
    });
  });

  it("sends CREATE with the port, shares and threshold, and no token or address", () => {
    expect(toVaultBody({ ...managed, port: "50010", shares: "5", threshold: "3", token: "left-over" })).toEqual({
      name: "bao",
      type: "VAULT",
      config: { vault: { operation: "CREATE", port: 50010, shares: 5, threshold: 3 } },
    });
    expect(toVaultBody(managed).config?.vault).toEqual({ operation: "CREATE", shares: 3, threshold: 2 });
  });

  it("sends the PKI engine and its mount only when chosen, and checks the mount", () => {
    expect(toVaultBody({ ...managed, caEngine: "pki", pkiMount: "fabric-pki" }).config?.vault).toEqual({
      operation: "CREATE",
      shares: 3,
      threshold: 2,
      caEngine: "pki",
      pkiMount: "fabric-pki",
    });
    expect(toVaultBody({ ...external, caEngine: "pki", pkiMount: "" }).config?.vault).toMatchObject({
      caEngine: "pki",
    });
    expect(toVaultBody({ ...external, pkiMount: "ignored" }).config?.vault).not.toHaveProperty("caEngine");
    expect(validateVaultForm({ ...external, caEngine: "pki", pkiMount: "a/b c" }).pkiMount).toBe(
      "Letters, digits, - and _ only",
    );
    expect(validateVaultForm({ ...external, caEngine: "transit", pkiMount: "a/b c" }).pkiMount).toBeUndefined();
  });

  it("puts the server's named 400s on their fields, schema details or message prefix alike", () => {
    const byMessage = new ApiError(400, "INVALID_INPUT", "config.vault.token: Vault at https://v refused the token", {
      error: "INVALID_INPUT",
      message: "config.vault.token: Vault at https://v refused the token",
    });
    expect(formErrorsFrom(byMessage, VAULT_FORM_FIELDS)).toEqual({
      token: "Vault at https://v refused the token",
    });
    const byDetails = new ApiError(400, "INVALID_INPUT", "invalid body", {
      error: "INVALID_INPUT",
      message: "invalid body",
      details: [{ field: "body.config.vault.port", message: "Number must be at most 65535" }],
    });
    expect(formErrorsFrom(byDetails, VAULT_FORM_FIELDS)).toEqual({ port: "Number must be at most 65535" });
    const taken = new ApiError(409, "CONFLICT", "name: a key provider named 'bao' already exists");
    expect(formErrorsFrom(taken, VAULT_FORM_FIELDS)).toEqual({ name: "a key provider named 'bao' already exists" });
    // A 502 (sealed or unreachable Vault) names no field: the page shows it as a toast.
    const sealed = new ApiError(502, "UPSTREAM", "Vault at https://v is sealed; unseal it");
    expect(formErrorsFrom(sealed, VAULT_FORM_FIELDS)).toEqual({});
  });
});

describe("AWS KMS provider form", () => {
  const filled = { ...AWS_KMS_FORM_DEFAULTS, name: "kms" };

  it("needs a name and a region, and credentials in pairs", () => {
    expect(validateAwsKmsForm({ ...AWS_KMS_FORM_DEFAULTS, awsRegion: "" })).toEqual({
      name: "Name is required",
      awsRegion: "Region is required",
    });
    expect(validateAwsKmsForm(filled)).toEqual({});
    expect(
      validateAwsKmsForm({
        ...filled,
        awsRegion: "Frankfurt",
        awsAccessKeyId: "AKIA1",
        externalId: "x",
        assumeRoleArn: "",
        endpointUrl: "localhost:5000",
      }),
    ).toEqual({
      awsRegion: "An AWS region such as eu-west-1",
      awsSecretAccessKey: "Give the secret access key of this access key id",
      externalId: "An external id goes with a role to assume",
      endpointUrl: "Give http(s)://host:port",
    });
    expect(validateAwsKmsForm({ ...filled, awsSecretAccessKey: "s", assumeRoleArn: "role" })).toEqual({
      awsAccessKeyId: "Give the access key id of this secret",
      assumeRoleArn: "A role ARN, arn:aws:iam::<account>:role/<name>",
    });
  });

  it("sends only the fields given", () => {
    expect(
      toAwsKmsBody({
        ...filled,
        awsRegion: "eu-west-1",
        awsAccessKeyId: "AKIA1",
        awsSecretAccessKey: "s3cr3t",
        endpointUrl: "http://127.0.0.1:5000/",
      }),
    ).toEqual({
      name: "kms",
      type: "AWS_KMS",
      config: {
        awsKms: {
          operation: "IMPORT",
          awsRegion: "eu-west-1",
          awsAccessKeyId: "AKIA1",
          awsSecretAccessKey: "s3cr3t",
          endpointUrl: "http://127.0.0.1:5000",
          kmsKeyAliasPrefix: "chainlaunch/",
        },
      },
    });
  });

  it("maps config.awsKms.* errors to the fields", () => {
    const e = new ApiError(400, "INVALID_INPUT", "config.awsKms.awsRegion: KMS has no region moon-1");
    expect(formErrorsFrom(e, AWS_KMS_FORM_FIELDS)).toEqual({ awsRegion: "KMS has no region moon-1" });
  });
});
