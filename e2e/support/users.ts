/** Users the global setup creates (the admin comes from CHAINLAUNCH_ADMIN_PASSWORD). */
export const USERS = {
  manager: { username: "mia.manager", password: "manager-pass-1", role: "manager" },
  viewer: { username: "victor.viewer", password: "viewer-pass-1", role: "viewer" },
} as const;

export interface Credentials {
  username: string;
  password: string;
}
