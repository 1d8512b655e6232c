/** A chaincode call as the HTTP body describes it, checked. */
export interface CallRequest {
  chaincode: string;
  function: string;
  args: string[];
  /** Private inputs for the chaincode (POST /invoke only); never logged or written to the ledger. */
  transient?: Record<string, string>;
  /** The organizations whose peers must endorse (POST /invoke only). */
  endorsingOrganizations?: string[];
}

/** One problem with a body field; `path` names the field as the caller wrote it (`args[1]`). */
export interface FieldProblem {
  path: string;
  message: string;
}

const MAX_NAME = 255;
const MAX_ARGS = 1000;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function requiredName(body: Record<string, unknown>, field: string, problems: FieldProblem[]): string {
  const v = body[field];
  if (v === undefined || v === null || v === "") problems.push({ path: field, message: "required" });
  else if (typeof v !== "string") problems.push({ path: field, message: "must be a string" });
  else if (v.length > MAX_NAME) problems.push({ path: field, message: `must be at most ${MAX_NAME} characters` });
  else return v;
  return "";
}

function stringArray(v: unknown, field: string, problems: FieldProblem[], max: number): string[] {
  if (!Array.isArray(v)) {
    problems.push({ path: field, message: "must be an array of strings" });
    return [];
  }
  if (v.length > max) problems.push({ path: field, message: `must have at most ${max} items` });
  v.forEach((item, i) => {
    if (typeof item !== "string") problems.push({ path: `${field}[${i}]`, message: "must be a string" });
  });
  return v as string[];
}

/**
 * Checks a POST /invoke or /query body. Returns the call, or every problem found; unknown fields
 * are problems too, so that a misspelt `fn` or `argz` is not silently ignored.
 */
export function parseCallRequest(body: unknown, kind: "invoke" | "query"): CallRequest | FieldProblem[] {
  if (!isObject(body)) return [{ path: "body", message: "must be a JSON object" }];
  const problems: FieldProblem[] = [];
  const allowed = kind === "invoke" ? ["chaincode", "function", "args", "transient", "endorsingOrganizations"] : [];
  if (kind === "query") allowed.push("chaincode", "function", "args");
  for (const k of Object.keys(body)) {
    if (!allowed.includes(k)) problems.push({ path: k, message: `unknown field (allowed: ${allowed.join(", ")})` });
  }
  const call: CallRequest = {
    chaincode: requiredName(body, "chaincode", problems),
    function: requiredName(body, "function", problems),
    args: body.args === undefined ? [] : stringArray(body.args, "args", problems, MAX_ARGS),
  };
  if (kind === "invoke" && body.transient !== undefined) {
    if (!isObject(body.transient)) problems.push({ path: "transient", message: "must be an object of strings" });
    else {
      for (const [k, v] of Object.entries(body.transient)) {
        if (typeof v !== "string") problems.push({ path: `transient.${k}`, message: "must be a string" });
      }
      call.transient = body.transient as Record<string, string>;
    }
  }
  if (kind === "invoke" && body.endorsingOrganizations !== undefined) {
    const orgs = stringArray(body.endorsingOrganizations, "endorsingOrganizations", problems, 100);
    orgs.forEach((o, i) => {
      if (o === "") problems.push({ path: `endorsingOrganizations[${i}]`, message: "must not be empty" });
    });
    call.endorsingOrganizations = orgs;
  }
  return problems.length ? problems : call;
}
