import { describe, expect, it } from "vitest";
import { chaincodeKeys } from "@/data/chaincodes/keys";
import type { DefinitionDockerInfo } from "@/data/chaincodes/types";
import { DefinitionContainer, shortContainerId } from "@/pages/smart-contracts/DefinitionContainer";
import { failing, screenText, seed } from "@/test-support/static-screen";

const id = "3f4e5d6c7b8a".padEnd(64, "0");
const info: DefinitionDockerInfo = {
  id,
  name: "chainlaunch-ab12-cc-asset-5",
  image: "acme/asset:1.0",
  state: "running",
  status: "Up 2 minutes",
  docker_status: "running",
  created: 1_767_225_600,
  ports: ["192.168.1.20:17060->17060/tcp"],
};

describe("definition container", () => {
  it("shortens a container id as docker ps does, and leaves other ids alone", () => {
    expect(shortContainerId(id)).toBe("3f4e5d6c7b8a");
    expect(shortContainerId("4242")).toBe("4242");
  });

  it("shows the short id, image and state of a deployed image", () => {
    const text = screenText(
      <DefinitionContainer definitionId={5} deployed />,
      "/",
      "/",
      seed(chaincodeKeys.dockerInfo(5), info),
    );
    expect(text).toMatch(/Container 3f4e5d6c7b8a /);
    expect(text).not.toContain(id);
    expect(text).toContain("Image acme/asset:1.0");
    expect(text).toContain("State running Up 2 minutes");
  });

  it("shows the state once when the status says no more (the console's containers without restarts)", () => {
    const text = screenText(
      <DefinitionContainer definitionId={5} deployed />,
      "/",
      "/",
      seed(chaincodeKeys.dockerInfo(5), { ...info, status: "running" }),
    );
    expect(text.trim()).toMatch(/State running$/);
  });

  it("says why when the engine can't tell, and shows nothing when not deployed", () => {
    expect(
      screenText(<DefinitionContainer definitionId={5} deployed />, "/", "/", failing(chaincodeKeys.dockerInfo(5))),
    ).toContain("Container unknown: database is locked");
    expect(screenText(<DefinitionContainer definitionId={5} deployed={false} />, "/", "/").trim()).toBe("");
  });
});
