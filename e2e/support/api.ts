/** Calls the real API with HTTP Basic credentials (no browser involved). */
export async function apiCall<T = unknown>(
  baseUrl: string,
  user: { username: string; password: string },
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; data: T }> {
  const headers: Record<string, string> = {
    authorization: `Basic ${Buffer.from(`${user.username}:${user.password}`).toString("base64")}`,
  };
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(`${baseUrl}/api/v1${path}`, {
    method,
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  let data: unknown = text;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    // keep text
  }
  return { status: res.status, data: data as T };
}
