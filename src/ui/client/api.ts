import type { ValidationDetail } from "./types.ts";
import { readAnswer } from "./json_answer.ts";

const TOKEN_KEY = "inlet.adminToken";

/** The admin token lives in sessionStorage: it is gone when the tab closes. */
export const session = {
  get token(): string | null {
    return sessionStorage.getItem(TOKEN_KEY);
  },
  set(token: string) {
    sessionStorage.setItem(TOKEN_KEY, token);
  },
  clear() {
    sessionStorage.removeItem(TOKEN_KEY);
  },
};

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details: ValidationDetail[] = [],
  ) {
    super(message);
  }
}

/** Fired when the server no longer accepts the token: the app shows the sign-in form again. */
export const SIGNED_OUT = "inlet:signed-out";

/** A call to the management API with the stored admin token (or `token`, when signing in). */
export async function api<T>(method: string, path: string, body?: unknown, token = session.token): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers: { Authorization: `Bearer ${token ?? ""}`, ...(body !== undefined ? { "Content-Type": "application/json" } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, "The server could not be reached. Check that inlet is running.");
  }
  const data = readAnswer(await response.text());
  if (response.status === 401 && token === session.token && token !== null) {
    session.clear();
    window.dispatchEvent(new CustomEvent(SIGNED_OUT));
  }
  if (!response.ok) {
    throw new ApiError(
      response.status,
      typeof data?.error === "string" ? data.error : `HTTP ${response.status}`,
      Array.isArray(data?.details) ? data.details : [],
    );
  }
  return data as T;
}

export type CheckKind = "jsonpath" | "filter" | "regex";
export type CheckResult = { ok: true; result?: unknown } | { ok: false; error: string };

const checked = new Map<string, CheckResult>();

/**
 * `POST /api/check`: the same code paths live requests run. Results without a sample are cached,
 * since a field re-validates on every pause in typing.
 */
export async function check(kind: CheckKind, expression: string, sample?: unknown): Promise<CheckResult> {
  const key = `${kind}\u0000${expression}`;
  if (sample === undefined && checked.has(key)) return checked.get(key)!;
  const result = await api<CheckResult>("POST", "/api/check", sample === undefined ? { kind, expression } : { kind, expression, sample });
  if (sample === undefined) checked.set(key, result);
  return result;
}
