import { isApiError } from "@/api/errors";
import { showToast } from "@/lib/toast";

export const PERMISSION_DENIED_TITLE = "Permission Denied";
export const PERMISSION_DENIED_MESSAGE = "You do not have permission to perform this action.";

/** Title and description of the toast for a failed mutation, per spec §8. */
export function mutationErrorText(error: unknown): { title: string; description: string } {
  if (isApiError(error) && error.status === 403) {
    return { title: PERMISSION_DENIED_TITLE, description: PERMISSION_DENIED_MESSAGE };
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
