import { createHash, X509Certificate } from "node:crypto";
import type { common } from "@hyperledger/fabric-protos";
import { configGroupToJson, configToJson, type Json } from "../../fabric/configtx/index.js";

type JsonObject = { [key: string]: Json };

/** One element a config update changes, at its path in `configtxlator proto_decode` JSON. */
export interface ConfigChange {
  kind: "added" | "removed" | "changed";
  /** e.g. `channel_group.groups.Application.groups.Org2MSP` or `...values.BatchSize.value.max_message_count`. */
  path: string;
  /** The element before the update (removed and changed elements), shortened for display. */
  before?: string;
  /** The element after the update (added and changed elements), shortened for display. */
  after?: string;
}

const isObject = (v: Json | undefined): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);
const obj = (v: Json | undefined): JsonObject => (isObject(v) ? v : {});

/**
 * The channel config the orderer will hold once `update` is applied to `config`, as protolator
 * JSON. It follows Fabric's configtx validator: an element of the write set whose version differs
 * from the current one replaces it; a group whose own version changes takes its members from the
 * write set, so a member it no longer lists is gone (this is how an org is removed: the removed
 * org is in neither the read set nor the write set, which is why the delta alone can't show it).
 * Same-version entries of the write set are placeholders and keep the current element.
 */
export function proposedConfigJson(config: common.Config, update: common.ConfigUpdate): JsonObject {
  const current = configToJson(config);
  const ws = update.getWriteSet();
  if (!ws) return current;
  return {
    channel_group: mergeGroup(obj(current.channel_group), configGroupToJson(ws, "channel")),
    sequence: String(config.getSequence() + 1),
  };
}

function mergeElement(cur: Json | undefined, w: Json | undefined): Json | undefined {
  if (w === undefined) return cur;
  if (cur === undefined) return w;
  return obj(w).version === obj(cur).version ? cur : w;
}

function mergeMap(
  cur: JsonObject,
  ws: JsonObject,
  membersFromWriteSet: boolean,
  each: (c: Json | undefined, w: Json | undefined) => Json | undefined,
): JsonObject {
  const keys = membersFromWriteSet ? Object.keys(ws) : [...new Set([...Object.keys(cur), ...Object.keys(ws)])];
  const out: JsonObject = {};
  for (const k of keys.sort()) {
    const v = each(cur[k], ws[k]);
    if (v !== undefined) out[k] = v;
  }
  return out;
}

function mergeGroup(cur: JsonObject, ws: JsonObject): JsonObject {
  const updated = cur.version !== ws.version;
  const group = (c: Json | undefined, w: Json | undefined): Json | undefined =>
    w === undefined ? c : c === undefined ? w : mergeGroup(obj(c), obj(w));
  return {
    groups: mergeMap(obj(cur.groups), obj(ws.groups), updated, group),
    mod_policy: updated ? (ws.mod_policy ?? "") : (cur.mod_policy ?? ""),
    policies: mergeMap(obj(cur.policies), obj(ws.policies), updated, mergeElement),
    values: mergeMap(obj(cur.values), obj(ws.values), updated, mergeElement),
    version: ws.version ?? "0",
  };
}

/**
 * What a config update changes, element by element: the channel's config before and after the
 * update (both decoded as `configtxlator proto_decode` does) compared field by field. Versions and
 * the sequence are left out: every change bumps them, so they say nothing about what changed.
 * A changed policy is one element, shown as its rule (`MAJORITY Admins`, `OR('Org1MSP.admin')`).
 */
export function configChanges(config: common.Config, update: common.ConfigUpdate): ConfigChange[] {
  const before = configToJson(config);
  const after = proposedConfigJson(config, update);
  const out: ConfigChange[] = [];
  walk("channel_group", before.channel_group, after.channel_group, out);
  return out;
}

/** The changes as one line each: `+ path`, `- path`, `~ path: before -> after`. */
export function changeLines(changes: readonly ConfigChange[]): string[] {
  return changes.map((c) =>
    c.kind === "added"
      ? `+ ${c.path}`
      : c.kind === "removed"
        ? `- ${c.path}`
        : `~ ${c.path}: ${c.before} -> ${c.after}`,
  );
}

const POLICY_PATH = /\.policies\.[^.]+\.policy$/;

function walk(path: string, a: Json | undefined, b: Json | undefined, out: ConfigChange[]): void {
  if (a === undefined && b === undefined) return;
  if (a === undefined) {
    out.push({ kind: "added", path, after: display(b!, path) });
    return;
  }
  if (b === undefined) {
    out.push({ kind: "removed", path, before: display(a, path) });
    return;
  }
  if (JSON.stringify(a) === JSON.stringify(b)) return;
  if (POLICY_PATH.test(path) || !sameShape(a, b)) {
    out.push({ kind: "changed", path, before: display(a, path), after: display(b, path) });
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    walkArray(path, a, b, out);
    return;
  }
  const ao = obj(a);
  const bo = obj(b);
  for (const k of [...new Set([...Object.keys(ao), ...Object.keys(bo)])].sort()) {
    if (k === "version") continue;
    walk(`${path}.${k}`, ao[k], bo[k], out);
  }
}

function sameShape(a: Json, b: Json): boolean {
  if (Array.isArray(a)) return Array.isArray(b);
  if (isObject(a)) return isObject(b);
  return false;
}

/**
 * Lists of equal length are compared by position (a consenter's new port reads as that field
 * changing); otherwise as multisets, so removing the first consenter reads as that one removed,
 * not as every later one shifted.
 */
function walkArray(path: string, a: Json[], b: Json[], out: ConfigChange[]): void {
  if (a.length === b.length) {
    a.forEach((x, i) => walk(`${path}[${i}]`, x, b[i], out));
    return;
  }
  const left = b.map((x) => JSON.stringify(x));
  const removed: ConfigChange[] = [];
  a.forEach((x, i) => {
    const j = left.indexOf(JSON.stringify(x));
    if (j >= 0) left[j] = "\u0000";
    else removed.push({ kind: "removed", path: `${path}[${i}]`, before: display(x, path) });
  });
  out.push(...removed);
  left.forEach((s, i) => {
    if (s !== "\u0000") out.push({ kind: "added", path: `${path}[${i}]`, after: display(b[i]!, path) });
  });
}

const MAX = 400;

/** A short, readable form of an element: a rule for a policy, a subject for a certificate. */
function display(v: Json, path: string): string {
  if (POLICY_PATH.test(path)) return policyRule(v) ?? compact(v);
  if (/\.policies\.[^.]+$/.test(path) && isObject(v)) {
    return `${policyRule(v.policy ?? null) ?? compact(v.policy ?? null)} (mod_policy ${String(v.mod_policy)})`;
  }
  const g = obj(v);
  if ("groups" in g && "values" in g && "policies" in g) {
    const names = (m: Json | undefined): string => Object.keys(obj(m)).join(", ") || "none";
    const parts = [`values ${names(g.values)}`, `policies ${names(g.policies)}`, `groups ${names(g.groups)}`];
    const mspConfig = obj(obj(obj(obj(g.values).MSP).value).config);
    const roots = Array.isArray(mspConfig.root_certs) ? mspConfig.root_certs : [];
    if (typeof mspConfig.name === "string") {
      const root = typeof roots[0] === "string" ? `, root CA ${shortString(roots[0])}` : "";
      parts.unshift(`organization ${mspConfig.name}${root}`);
    }
    return `group: ${parts.join("; ")}`;
  }
  const s = compact(v);
  return s.length > MAX ? `${s.slice(0, MAX - 1)}…` : s;
}

function compact(v: Json): string {
  if (typeof v === "string") return shortString(v);
  if (v === null || typeof v !== "object") return String(v);
  if (Array.isArray(v)) return `[${v.map(compact).join(", ")}]`;
  return `{${Object.entries(v)
    .filter(([k]) => k !== "version")
    .map(([k, x]) => `${k}: ${compact(x)}`)
    .join(", ")}}`;
}

/** Certificates (base64 PEM in protolator JSON) by subject and fingerprint; other long strings cut. */
function shortString(s: string): string {
  if (s.length <= 64) return s === "" ? '""' : s;
  const pem = Buffer.from(s, "base64").toString("utf8");
  if (pem.startsWith("-----BEGIN CERTIFICATE-----")) {
    try {
      const c = new X509Certificate(pem);
      return `certificate ${c.subject.replace(/\n/g, ", ")} (sha256 ${c.fingerprint256.slice(0, 23)}…)`;
    } catch {
      // not a certificate after all: shown as bytes below
    }
  }
  const sha = createHash("sha256").update(s).digest("hex").slice(0, 12);
  return `${s.slice(0, 24)}… (${s.length} chars, sha256 ${sha})`;
}

/** A policy's rule as operators write it: `MAJORITY Admins`, `OR('Org1MSP.admin', 'Org2MSP.admin')`. */
function policyRule(p: Json): string | undefined {
  const value = obj(obj(p).value);
  if (obj(p).type === 3) return `${String(value.rule)} ${String(value.sub_policy)}`;
  if (obj(p).type !== 1) return undefined;
  const ids = Array.isArray(value.identities) ? value.identities : [];
  const principal = (i: number): string => {
    const pr = obj(obj(ids[i]).principal);
    return typeof pr.msp_identifier === "string"
      ? `'${pr.msp_identifier}.${String(pr.role).toLowerCase()}'`
      : `<principal ${i}>`;
  };
  const render = (r: Json): string => {
    const ro = obj(r);
    if (!isObject(ro.n_out_of)) return principal(Number(ro.signed_by ?? 0));
    const n = Number(ro.n_out_of.n);
    const rules = Array.isArray(ro.n_out_of.rules) ? ro.n_out_of.rules.map(render) : [];
    if (n === 1) return `OR(${rules.join(", ")})`;
    if (n === rules.length) return `AND(${rules.join(", ")})`;
    return `OutOf(${n}, ${rules.join(", ")})`;
  };
  return value.rule === null || value.rule === undefined ? "" : render(value.rule);
}
