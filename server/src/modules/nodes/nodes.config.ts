import { z } from "zod";

/**
 * Environment the nodes module reads once at registration (boot). Kept here until the lead
 * folds it into config/config.ts: CHAINLAUNCH_FABRIC_BIN_DIR (a directory of Fabric binaries,
 * `{version}` allowed), CHAINLAUNCH_FABRIC_DOWNLOAD=0 (never download release tarballs) and
 * CHAINLAUNCH_BESU_BIN (the besu launcher).
 */
const schema = z.object({
  CHAINLAUNCH_FABRIC_BIN_DIR: z.string().min(1).optional(),
  CHAINLAUNCH_FABRIC_DOWNLOAD: z.enum(["0", "1", "true", "false", ""]).optional(),
  CHAINLAUNCH_BESU_BIN: z.string().min(1).optional(),
});

export interface NodesConfig {
  fabricBinDir: string | undefined;
  fabricDownload: boolean;
  besuBin: string | undefined;
}

export function loadNodesConfig(env: NodeJS.ProcessEnv = process.env): NodesConfig {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    throw new Error(
      `invalid configuration:\n  ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("\n  ")}`,
    );
  }
  const e = parsed.data;
  return {
    fabricBinDir: e.CHAINLAUNCH_FABRIC_BIN_DIR,
    fabricDownload: !(e.CHAINLAUNCH_FABRIC_DOWNLOAD === "0" || e.CHAINLAUNCH_FABRIC_DOWNLOAD === "false"),
    besuBin: e.CHAINLAUNCH_BESU_BIN,
  };
}
