/**
 * The OpenAPI declares plugin bodies as JSON objects; the server also takes the YAML text itself as
 * `application/yaml`, which keeps line numbers in its problems. These options send the text as is.
 */
export function yamlBody(text: string): {
  body: Record<string, unknown>;
  bodySerializer: (b: unknown) => string;
  headers: { "Content-Type": string };
} {
  return {
    body: text as unknown as Record<string, unknown>,
    bodySerializer: (b) => String(b),
    headers: { "Content-Type": "application/yaml" },
  };
}

/** Statuses during which a deployment changes by itself, so screens poll. */
export const MOVING_STATES: readonly string[] = ["deploying", "stopping"];
