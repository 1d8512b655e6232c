import { describe, expect, it } from "vitest";
import { backLinkFor, invalidIdParam } from "@/app/RouteScreen";

describe("route screen helpers", () => {
  it("finds an id in the path that can't name anything", () => {
    expect(invalidIdParam({ id: "12" })).toBeUndefined();
    expect(invalidIdParam({ id: "xyz" })).toBe("xyz");
    expect(invalidIdParam({ id: "0" })).toBe("0");
    expect(invalidIdParam({ networkId: "3", nodeId: "-1", blockNumber: "0x10" })).toBe("-1");
    // Only id parameters: block numbers and plugin names are the screens' own business.
    expect(invalidIdParam({ blockNumber: "latest", name: "my-plugin" })).toBeUndefined();
    // connect/:id names a console by its node id: the screen checks it, not the route.
    expect(invalidIdParam({ id: "cl-0123abcd" }, true)).toBeUndefined();
  });

  it("links a detail screen back to its list", () => {
    expect(backLinkFor("/nodes/999999")).toEqual({ label: "Nodes", href: "/nodes" });
    expect(backLinkFor("/networks/999999/fabric")).toEqual({ label: "Networks", href: "/networks" });
    expect(backLinkFor("/organizations/999999")).toEqual({ label: "Organizations", href: "/fabric/organizations" });
    expect(backLinkFor("/settings/keys/5")).toEqual({ label: "Key Management", href: "/settings/keys" });
    expect(backLinkFor("/connect/cl-0123abcd")).toEqual({ label: "Connect", href: "/connect" });
    expect(backLinkFor("/users")).toEqual({ label: "Dashboard", href: "/dashboard" });
  });
});
