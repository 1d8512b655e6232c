export const alertsKeys = {
  all: ["alerts"] as const,
};
