import { isApiError } from "@/api/errors";
import { showToast } from "@/lib/toast";

export const PERMISSION_DENIED_TITLE = "Permission Denied";
export const PERMISSION_DENIED_MESSAGE = "You do not have permission to perform this action.";

/** Title and description of the toast for a failed mutation, per spec §8. */
export function mutationErrorText(error: unknown): { title: string; description: string } {
  if (isApiError(error) && error.status === 403) {
    // A host-command refusal (HOST_COMMAND) says what was refused and why: the generic text would hide it.
    const body = error.body as { details?: { permission?: unknown } } | undefined;
    const hostCommand = body?.details?.permission === "HOST_COMMAND" && error.message !== "";
    return { title: PERMISSION_DENIED_TITLE, description: hostCommand ? error.message : PERMISSION_DENIED_MESSAGE };
  }
  const message = error instanceof Error ? error.message : typeof error === "string" ? error : "";
  if (message) return { title: "An error occurred", description: message };
  return { title: "An error occurred", description: "An unknown error occurred" };
}

/** Shows the spec's error toast for a failed mutation. */
export function showMutationError(error: unknown): void {
  const { title, description } = mutationErrorText(error);
  showToast("error", title, { description });
}
