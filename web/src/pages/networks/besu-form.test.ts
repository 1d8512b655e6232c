import { describe, expect, it } from "vitest";
import { ApiError } from "@/api/errors";
import { formErrorsFrom } from "@/lib/field-errors";
import {
  BESU_FORM_DEFAULTS,
  BESU_FORM_FIELDS,
  decodeNetworkConfig,
  formatWei,
  prettyJson,
  toCreateBesuNetworkBody,
} from "@/pages/networks/besu-form";

describe("toCreateBesuNetworkBody", () => {
  it("maps defaults and validators to a QBFT request", () => {
    expect(toCreateBesuNetworkBody({ ...BESU_FORM_DEFAULTS, name: " testnet ", validatorKeyIds: [7, 9] })).toEqual({
      name: "testnet",
      config: {
        consensus: "qbft",
        chainId: 1337,
        blockPeriod: 5,
        epochLength: 30000,
        requestTimeout: 10,
        gasLimit: "0x29b92700",
        initialValidatorsKeyIds: [7, 9],
        externalValidatorKeys: [],
      },
    });
  });

  it("keeps external validators with a public key and alloc rows with an address", () => {
    const body = toCreateBesuNetworkBody({
      ...BESU_FORM_DEFAULTS,
      name: "n",
      description: "lab",
      gasLimit: "",
      externalValidators: [
        { address: "0xabc", publicKey: " 0x04ff " },
        { address: "", publicKey: "0x04ee" },
        { address: "0xdead", publicKey: "" },
      ],
      alloc: [
        { address: "0x195D051FAC22D69530bdB3f711008531AC280777", balance: "1000" },
        { address: " ", balance: "5" },
        { address: "0x0000000000000000000000000000000000000001", balance: "" },
      ],
    });
    expect(body.description).toBe("lab");
    expect(body.config.gasLimit).toBeUndefined();
    expect(body.config.externalValidatorKeys).toEqual([
      { publicKey: "0x04ff", ethereumAddress: "0xabc" },
      { publicKey: "0x04ee" },
    ]);
    expect(body.config.alloc).toEqual({
      "0x195D051FAC22D69530bdB3f711008531AC280777": { balance: "1000" },
      "0x0000000000000000000000000000000000000001": { balance: "0" },
    });
  });

  it("puts the server's field errors on the right inputs", () => {
    const err = (m: string): ApiError => new ApiError(400, "INVALID_INPUT", m, {});
    expect(formErrorsFrom(err("config.chainId: chain id 1337 is already used"), BESU_FORM_FIELDS)).toEqual({
      chainId: "chain id 1337 is already used",
    });
    expect(formErrorsFrom(err("config.initialValidatorsKeyIds[0]: key 8 is EC P-256"), BESU_FORM_FIELDS)).toEqual({
      validatorKeyIds: "key 8 is EC P-256",
    });
    expect(formErrorsFrom(err("config: validator 0xab is listed twice"), BESU_FORM_FIELDS)).toEqual({
      validatorKeyIds: "validator 0xab is listed twice",
    });
  });
});

describe("network helpers", () => {
  it("decodes the stored creation parameters", () => {
    expect(decodeNetworkConfig(btoa(JSON.stringify({ chainId: 5, blockPeriod: 2 })))).toEqual({
      chainId: 5,
      blockPeriod: 2,
    });
    expect(decodeNetworkConfig("%%%")).toBeUndefined();
  });

  it("shows wei with its ether value", () => {
    expect(formatWei("0xad78ebc5ac6200000")).toBe("200000000000000000000 (200 ETH)");
    expect(formatWei("1500000000000000000")).toBe("1500000000000000000 (1.5 ETH)");
    expect(formatWei("0")).toBe("0");
    expect(formatWei("zz")).toBe("zz");
  });

  it("pretty-prints JSON and leaves other text alone", () => {
    expect(prettyJson('{"a":1}')).toBe('{\n  "a": 1\n}');
    expect(prettyJson("not json")).toBe("not json");
  });
});
