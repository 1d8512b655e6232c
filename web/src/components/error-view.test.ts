import { describe, expect, it } from "vitest";
import { ApiError } from "@/api/errors";
import { describeError, FORBIDDEN_TITLE, GENERIC_ERROR_TITLE, kindFromMessage } from "@/components/error-view";

const forbidden = (details: unknown, message = "this needs the admin or manager role; your role is viewer"): ApiError =>
  new ApiError(403, "FORBIDDEN", message, { error: "FORBIDDEN", message, details });

describe("describeError", () => {
  it("names the kind of a missing thing from the server's message", () => {
    expect(kindFromMessage("organization 999999 not found")).toBe("organization");
    expect(kindFromMessage("Fabric network 7 not found")).toBe("Fabric network");
    expect(describeError(new ApiError(404, "NOT_FOUND", "node 999999 not found"), "Node")).toEqual({
      kind: "not-found",
      title: "Node not found",
      description: "The node you opened does not exist. It may have been deleted, or the link is wrong.",
    });
    expect(describeError(new ApiError(404, "NOT_FOUND", "Fabric network 5 not found")).title).toBe(
      "Fabric network not found",
    );
  });

  it("falls back to the screen's name and keeps an unusual server message", () => {
    const v = describeError(new ApiError(404, "NOT_FOUND", "block 9 not found: the chain height is 3"), "Block");
    expect(v.kind).toBe("not-found");
    expect(v.title).toBe("Block not found");
    expect(v.description).toContain("the chain height is 3");
    expect(describeError(new ApiError(404, "NOT_FOUND", "")).title).toBe("Page not found");
  });

  it("treats a bad path parameter (400 on params.*) as not found, other 400s as errors", () => {
    expect(describeError(new ApiError(400, "INVALID_INPUT", "params.id: expected number"), "Organization").title).toBe(
      "Organization not found",
    );
    expect(describeError(new ApiError(400, "INVALID_INPUT", "body.name: required")).kind).toBe("error");
  });

  it("names the role a 403 needs and the caller's role", () => {
    expect(describeError(forbidden({ requiredRoles: ["admin", "manager"], role: "viewer", demo: false }))).toEqual({
      kind: "forbidden",
      title: FORBIDDEN_TITLE,
      description: "This needs the admin or manager role; your role is viewer. Ask an admin if you need access.",
      demo: false,
    });
  });

  it("tells the demo visitor to log in", () => {
    const v = describeError(forbidden({ requiredRoles: ["admin", "viewer"], role: "viewer", demo: true }));
    expect(v).toMatchObject({ kind: "forbidden", demo: true });
    expect(v.description).toBe("The demo visitor can't see this. Log in with your account to continue.");
  });

  it("shows a 403 without details by its message (e.g. a refused cross-site change)", () => {
    const v = describeError(new ApiError(403, "FORBIDDEN", "cross-site request refused: no Origin"));
    expect(v.kind).toBe("forbidden");
    expect(v.description).toBe("Cross-site request refused: no Origin. Ask an admin if you need access.");
  });

  it("keeps the generic error, with the server's message, for anything else", () => {
    expect(describeError(new ApiError(500, "INTERNAL", "internal server error (request 7)"))).toEqual({
      kind: "error",
      title: GENERIC_ERROR_TITLE,
      description: "internal server error (request 7)",
    });
    expect(describeError(new TypeError("Failed to fetch")).description).toBe("Failed to fetch");
    expect(describeError(null).description).toBe("An unknown error occurred");
  });
});
