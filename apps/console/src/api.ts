/** Calls of this origin's API with the signed-in key (kept in sessionStorage: gone with the tab). */
const KEY = 'tokensvc.console.key';
const ADMIN = 'tokensvc.console.admin';

export const session = {
  key: (): string | null => sessionStorage.getItem(KEY),
  setKey: (k: string | null): void => (k ? sessionStorage.setItem(KEY, k) : sessionStorage.removeItem(KEY)),
  adminToken: (): string | null => sessionStorage.getItem(ADMIN),
  setAdminToken: (t: string | null): void => (t ? sessionStorage.setItem(ADMIN, t) : sessionStorage.removeItem(ADMIN)),
};

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** JSON from `path` with the given bearer token; error bodies become an ApiError with their message. */
export async function request<T>(path: string, token: string | null, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (token) headers['authorization'] = `Bearer ${token}`;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(path, {
    method: init.method ?? 'GET',
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: the text is the message
  }
  if (!res.ok) {
    const message =
      typeof body === 'object' && body !== null && 'message' in body
        ? String((body as { message: unknown }).message)
        : `HTTP ${res.status}`;
    throw new ApiError(res.status, `${res.status}: ${message}`);
  }
  return body as T;
}

/** A public API call with the signed-in key. */
export const api = <T>(path: string): Promise<T> => request<T>(path, session.key());
