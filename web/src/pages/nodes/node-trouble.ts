/** What the node page says about a node that is down or restarting, from its status and errorMessage. */
export interface NodeTrouble {
  kind: "failed" | "restarting";
  /** One line: "failed: exit code 1: <decisive log line>" or "restarting in 2 s (attempt 2 of 5) after …". */
  headline: string;
  /** The lines after it, without the log lines the message quotes (the page shows the live tail). */
  details: string[];
}

/**
 * A node in ERROR has failed; one STARTING with a message is restarting after a crash (a first start
 * has none). Other states have nothing to explain.
 */
export function nodeTrouble(status: string, errorMessage: string | undefined): NodeTrouble | null {
  const restarting = status === "STARTING" && Boolean(errorMessage);
  if (status !== "ERROR" && !restarting) return null;
  const quoted = (errorMessage ?? "").split(/[;\s]*last log lines:/)[0] ?? "";
  const [first = "", ...rest] = quoted.split("\n").filter((l) => l.trim() !== "");
  if (restarting) return { kind: "restarting", headline: first, details: rest };
  const headline = first === "" ? "failed" : /^failed\b/.test(first) ? first : `failed: ${first}`;
  return { kind: "failed", headline, details: rest };
}
