import { describe, expect, it } from "vitest";
import { ApiError, toApiError } from "@/api/errors";
import { mutationErrorText } from "@/data/error-toast";
import { toastClipboardText } from "@/lib/toast";

describe("mutation error toasts (spec §8)", () => {
  it("maps 403 to Permission Denied", () => {
    expect(mutationErrorText(new ApiError(403, "FORBIDDEN", "nope"))).toEqual({
      title: "Permission Denied",
      description: "You do not have permission to perform this action.",
    });
  });
  it("says why a host command was refused", () => {
    const message =
      "spec.processes: defining plugin processes or a compose file (this plugin is not a built-in catalogue entry as published) runs commands on the host; only an admin may do it (your role is manager)";
    const error = toApiError(403, { error: "FORBIDDEN", message, details: { permission: "HOST_COMMAND" } });
    expect(mutationErrorText(error)).toEqual({ title: "Permission Denied", description: message });
  });
  it("shows the message of other errors", () => {
    expect(mutationErrorText(new ApiError(409, "CONFLICT", "username: already taken"))).toEqual({
      title: "An error occurred",
      description: "username: already taken",
    });
  });
  it("falls back to 'An unknown error occurred'", () => {
    expect(mutationErrorText(new ApiError(500, "INTERNAL", ""))).toEqual({
      title: "An error occurred",
      description: "An unknown error occurred",
    });
    expect(mutationErrorText(undefined).description).toBe("An unknown error occurred");
  });
  it("copies title plus description", () => {
    expect(toastClipboardText("A", "B")).toBe("A\nB");
    expect(toastClipboardText("A")).toBe("A");
  });
});

describe("toApiError", () => {
  it("reads the server envelope", () => {
    const e = toApiError(409, { error: "CONFLICT", message: "x: taken", requestId: "r" });
    expect([e.status, e.code, e.message]).toEqual([409, "CONFLICT", "x: taken"]);
  });
  it("keeps a text body as the message", () => {
    expect(toApiError(502, "Bad gateway").message).toBe("Bad gateway");
    expect(toApiError(500, undefined).code).toBe("HTTP_500");
  });
});
