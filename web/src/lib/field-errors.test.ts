import { describe, expect, it } from "vitest";
import { ApiError } from "@/api/errors";
import { fieldErrorsOf, formErrorsFrom } from "@/lib/field-errors";

const schemaError = new ApiError(400, "INVALID_INPUT", "body.name: Too small", {
  error: "INVALID_INPUT",
  message: "body.name: Too small",
  details: [
    { field: "body.name", message: "Too small" },
    { field: "body.config.gasLimit", message: "must be a 0x-hex or decimal quantity" },
  ],
});
const serviceError = new ApiError(400, "INVALID_INPUT", 'algorithm: unknown key algorithm "DSA"', {
  details: { field: "algorithm" },
});
const messageOnly = new ApiError(400, "INVALID_INPUT", "config.chainId: chain id 1337 is already used", {});

describe("fieldErrorsOf", () => {
  it("reads schema validation details", () => {
    expect(fieldErrorsOf(schemaError)).toEqual({
      name: "Too small",
      "config.gasLimit": "must be a 0x-hex or decimal quantity",
    });
  });

  it("reads the field prefix of service messages", () => {
    expect(fieldErrorsOf(serviceError)).toEqual({ algorithm: 'unknown key algorithm "DSA"' });
    expect(fieldErrorsOf(messageOnly)).toEqual({ "config.chainId": "chain id 1337 is already used" });
  });

  it("reads conflicts too, and ignores other statuses and plain errors", () => {
    expect(fieldErrorsOf(new ApiError(409, "CONFLICT", "name: exists"))).toEqual({ name: "exists" });
    expect(fieldErrorsOf(new ApiError(403, "FORBIDDEN", "name: no"))).toEqual({});
    expect(fieldErrorsOf(new Error("x: y"))).toEqual({});
  });
});

describe("formErrorsFrom", () => {
  it("maps request paths, including prefixes, to form fields", () => {
    const e = new ApiError(400, "INVALID_INPUT", "config.initialValidatorsKeyIds[0]: key 8 is not secp256k1", {});
    expect(formErrorsFrom(e, { validators: "config.initialValidatorsKeyIds", chainId: "config.chainId" })).toEqual({
      validators: "key 8 is not secp256k1",
    });
    expect(formErrorsFrom(schemaError, { name: "name", gasLimit: ["config.gasLimit"] })).toEqual({
      name: "Too small",
      gasLimit: "must be a 0x-hex or decimal quantity",
    });
  });
});
