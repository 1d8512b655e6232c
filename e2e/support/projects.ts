import { apiCall } from "./api.js";
import type { Credentials } from "./users.js";

/**
 * Deletes the chaincode projects named `name` and their chaincodes, after any Run still building
 * has ended (a failed assertion does not stop a Run, and a building project can't be deleted).
 */
export async function removeProjectsNamed(baseUrl: string, user: Credentials, name: string): Promise<void> {
  const projects = await apiCall<{ projects: { id: number; name: string; chaincodeId: number | null }[] }>(
    baseUrl,
    user,
    "GET",
    "/chaincode-projects",
  );
  for (const p of projects.data.projects.filter((x) => x.name === name)) {
    for (let i = 0; i < 120; i++) {
      const cur = await apiCall<{ status: string }>(baseUrl, user, "GET", `/chaincode-projects/${p.id}`);
      if (cur.data.status !== "building") break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    await apiCall(baseUrl, user, "DELETE", `/chaincode-projects/${p.id}`);
    if (p.chaincodeId) await apiCall(baseUrl, user, "DELETE", `/sc/fabric/chaincodes/${p.chaincodeId}`);
  }
}
