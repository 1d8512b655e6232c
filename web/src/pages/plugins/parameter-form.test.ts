import { describe, expect, it } from "vitest";
import { ApiError } from "@/api/errors";
import type { ParameterSchema } from "@/data/plugins/types";
import {
  deployErrorsFrom,
  fieldsOf,
  initialValues,
  stableJson,
  valuesFrom,
  type RawValues,
} from "@/pages/plugins/parameter-form";

const gateway: ParameterSchema = {
  $schema: "http://json-schema.org/draft-07/schema#",
  type: "object",
  properties: {
    peer: { type: "integer", title: "Peer", "x-source": "fabric-peer" },
    key: { type: "object", title: "Identity", description: "Signs the transactions", "x-source": "fabric-key" },
    network: { type: "integer", "x-source": "fabric-network" },
    peers: { type: "array", items: { type: "integer" }, "x-source": "fabric-peer" },
    port: { type: "integer", default: 8800, minimum: 1024, maximum: 65535 },
    logLevel: { type: "string", enum: ["info", "debug"], default: "info" },
    ratio: { type: ["number", "null"] },
    tls: { type: "boolean", default: true },
    hosts: { type: "array", items: { type: "string" }, default: ["a", "b"] },
    modes: { type: "array", items: { type: "string", enum: ["r", "w"] } },
    extra: { type: "object", default: { a: 1 } },
    note: { type: "string" },
  },
  required: ["peer", "key", "network", "port"],
};

describe("deploy form fields from a parameter schema", () => {
  it("makes one field per property, of the kind its type asks for", () => {
    const fields = fieldsOf(gateway);
    expect(fields.map((f) => [f.name, f.kind])).toEqual([
      ["peer", "source"],
      ["key", "source"],
      ["network", "source"],
      ["peers", "source"],
      ["port", "integer"],
      ["logLevel", "select"],
      ["ratio", "number"],
      ["tls", "boolean"],
      ["hosts", "string-list"],
      ["modes", "multi-select"],
      ["extra", "json"],
      ["note", "text"],
    ]);
    const byName = Object.fromEntries(fields.map((f) => [f.name, f]));
    expect(byName.peer).toMatchObject({ label: "Peer", required: true, source: "fabric-peer", multiple: false });
    expect(byName.key).toMatchObject({ label: "Identity", description: "Signs the transactions", required: true });
    expect(byName.network).toMatchObject({ label: "network", source: "fabric-network" });
    expect(byName.peers).toMatchObject({ multiple: true, required: false });
    expect(byName.port).toMatchObject({ minimum: 1024, maximum: 65535, required: true });
    expect(byName.logLevel?.options).toEqual([
      { key: '"info"', label: "info" },
      { key: '"debug"', label: "debug" },
    ]);
    expect(fieldsOf(undefined)).toEqual([]);
    expect(fieldsOf({ type: "object" })).toEqual([]);
  });

  it("prefills the defaults", () => {
    expect(initialValues(gateway)).toEqual({
      peer: "",
      key: "",
      network: "",
      peers: [],
      port: "8800",
      logLevel: '"info"',
      ratio: "",
      tls: true,
      hosts: "a\nb",
      modes: [],
      extra: '{\n  "a": 1\n}',
      note: "",
    });
  });

  it("keys object values by sorted JSON, so {keyId, orgId} matches however it is written", () => {
    expect(stableJson({ orgId: 2, keyId: 5 })).toBe('{"keyId":5,"orgId":2}');
    expect(stableJson({ keyId: 5, orgId: 2 })).toBe(stableJson({ orgId: 2, keyId: 5 }));
    expect(stableJson([{ b: 1, a: [2, "x"] }])).toBe('[{"a":[2,"x"],"b":1}]');
    expect(stableJson(7)).toBe("7");
  });

  it("turns the raw values into the values object, leaving empty optional fields to the defaults", () => {
    const fields = fieldsOf(gateway);
    const raw: RawValues = {
      ...initialValues(gateway),
      peer: "12",
      key: stableJson({ keyId: 5, orgId: 2 }),
      network: "3",
      peers: ["12", "13"],
      port: " 43800 ",
      tls: false,
      modes: ['"r"'],
    };
    const { values, errors } = valuesFrom(fields, raw);
    expect(errors).toEqual({});
    expect(values).toEqual({
      peer: 12,
      key: { keyId: 5, orgId: 2 },
      network: 3,
      peers: [12, 13],
      port: 43800,
      logLevel: "info",
      tls: false,
      hosts: ["a", "b"],
      modes: ["r"],
      extra: { a: 1 },
    });
  });

  it("names the fields to fix before asking the server", () => {
    const fields = fieldsOf(gateway);
    const { errors } = valuesFrom(fields, {
      ...initialValues(gateway),
      port: "80.5",
      ratio: "abc",
      extra: "{",
    });
    expect(errors).toEqual({
      peer: "Peer is required",
      key: "Identity is required",
      network: "network is required",
      port: "port must be a whole number",
      ratio: "ratio must be a number",
      extra: "extra must be valid JSON",
    });
    expect(valuesFrom(fields, { ...initialValues(gateway), port: "80" }).errors.port).toBe(
      "port must be at least 1024",
    );
  });
});

describe("deploy errors", () => {
  const fields = fieldsOf(gateway);

  it("puts a problem next to the field its path names, the rest at the top", () => {
    const e = new ApiError(400, "INPUT", "parameters.port: must be integer; parameters: must have x", {
      error: "INPUT",
      message: "parameters.port: must be integer; parameters: must have x",
    });
    expect(deployErrorsFrom(e, fields)).toEqual({
      fields: { port: "must be integer" },
      top: ["parameters: must have x"],
    });
  });

  it("prefers details.errors, maps nested paths to their parameter, and keeps a process's log", () => {
    const e = new ApiError(400, "INPUT", "…", {
      details: {
        errors: [
          { path: "parameters.key.keyId", message: "key 9 belongs to no organization" },
          { path: "parameters.unknown", message: "is not a known field" },
        ],
        log: ["starting", "listen EADDRINUSE"],
      },
    });
    expect(deployErrorsFrom(e, fields)).toEqual({
      fields: { key: "key 9 belongs to no organization" },
      top: ["parameters.unknown: is not a known field"],
      log: "starting\nlisten EADDRINUSE",
    });
  });

  it("shows other failures at the top", () => {
    expect(deployErrorsFrom(new ApiError(409, "CONFLICT", "gw is already running"), fields)).toEqual({
      fields: {},
      top: ["gw is already running"],
    });
    expect(
      deployErrorsFrom(new ApiError(400, "DOCKER_UNAVAILABLE", "no Docker engine", { details: {} }), fields).top,
    ).toEqual(["no Docker engine"]);
  });
});
