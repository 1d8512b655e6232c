/** Query keys of the troubleshooting tools: only the public IP is cached (the tests are mutations). */
export const troubleshootingKeys = {
  all: ["troubleshooting"] as const,
  publicIp: () => [...troubleshootingKeys.all, "public-ip"] as const,
};
