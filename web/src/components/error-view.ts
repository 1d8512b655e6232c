import { isApiError } from "@/api/errors";

/**
 * What a failed query looks like on screen. Not-found and permission errors get their own states
 * (with a way back, no retry: retrying can't help); anything else is the generic error with the
 * server's message and a retry.
 */
export type ErrorView =
  | { kind: "not-found"; title: string; description: string }
  | { kind: "forbidden"; title: string; description: string; demo: boolean }
  | { kind: "error"; title: string; description: string };

export const GENERIC_ERROR_TITLE = "Something went wrong";
export const FORBIDDEN_TITLE = "You don't have access to this";
const UNKNOWN_MESSAGE = "An unknown error occurred";

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null;
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** "Node" → "node" mid-sentence; names stay as they are ("Fabric network", "API key"). */
function inSentence(kind: string): string {
  return /^(Fabric|Besu)\b/.test(kind) || /^[A-Z]{2}/.test(kind) ? kind : kind.charAt(0).toLowerCase() + kind.slice(1);
}

/** "node 999999 not found" → "node"; "Fabric network 7 not found" → "Fabric network". */
export function kindFromMessage(message: string): string | undefined {
  return /^(.+?) \S+ not found$/.exec(message.trim())?.[1];
}

/** "admin", "manager" → "the admin or manager role". */
export function rolesPhrase(roles: readonly string[]): string {
  return `the ${roles.join(" or ")} role`;
}

/** The 403 body's details (see docs/api-foundation.md): who was refused and what was needed. */
interface ForbiddenDetails {
  requiredRoles: string[];
  role?: string;
  demo: boolean;
}

function forbiddenDetails(body: unknown): ForbiddenDetails | undefined {
  if (!isRecord(body) || !isRecord(body.details)) return undefined;
  const d = body.details;
  const roles = Array.isArray(d.requiredRoles) ? d.requiredRoles.filter((r): r is string => typeof r === "string") : [];
  return { requiredRoles: roles, role: typeof d.role === "string" ? d.role : undefined, demo: d.demo === true };
}

/**
 * Decides which state a failed query shows. `what` names the thing the screen shows (e.g. the route
 * title "Node"); a 404 whose server message names the kind ("organization 9 not found") uses that.
 * A 400 on a path parameter ("params.id: …") is a link to something that can't exist: not found too.
 */
export function describeError(error: unknown, what?: string): ErrorView {
  const message = error instanceof Error ? error.message : "";
  if (isApiError(error) && (error.status === 404 || (error.status === 400 && message.startsWith("params.")))) {
    const kind = (error.status === 404 ? kindFromMessage(message) : undefined) ?? what ?? "page";
    const said = message && error.status === 404 && !kindFromMessage(message) ? ` (${message})` : "";
    return {
      kind: "not-found",
      title: `${capitalize(kind)} not found`,
      description: `The ${inSentence(kind)} you opened does not exist${said}. It may have been deleted, or the link is wrong.`,
    };
  }
  if (isApiError(error) && error.status === 403) {
    const d = forbiddenDetails(error.body);
    if (d?.demo) {
      return {
        kind: "forbidden",
        title: FORBIDDEN_TITLE,
        description: "The demo visitor can't see this. Log in with your account to continue.",
        demo: true,
      };
    }
    const needed = d?.requiredRoles.length
      ? `This needs ${rolesPhrase(d.requiredRoles)}${d.role ? `; your role is ${d.role}` : ""}.`
      : message
        ? `${capitalize(message.replace(/\.$/, ""))}.`
        : "Your role does not allow this.";
    return {
      kind: "forbidden",
      title: FORBIDDEN_TITLE,
      description: `${needed} Ask an admin if you need access.`,
      demo: false,
    };
  }
  return { kind: "error", title: GENERIC_ERROR_TITLE, description: message || UNKNOWN_MESSAGE };
}
