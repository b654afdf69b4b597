// The one place that talks HTTP to the API. The session cookie goes along by itself (same
// origin); this adds the CSRF token to every change, turns non-2xx answers into ApiError and
// ends the session on any 401.

import type { ApiErrorBody, ApiErrorDetail } from "./api/types";
import { endSession, getCsrfToken } from "./session";

export const API_PREFIX = "/api/v1";

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly errors: ApiErrorDetail[];

  constructor(status: number, body: ApiErrorBody) {
    super(body.message);
    this.name = "ApiError";
    this.status = status;
    this.code = body.code;
    this.errors = body.errors ?? [];
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

type Query = Record<string, string | number | boolean | null | undefined>;

export interface RequestOptions {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as application/x-www-form-urlencoded. */
  form?: Record<string, string>;
  /** Sent as multipart/form-data (file uploads); the browser sets the boundary. */
  multipart?: FormData;
  query?: Query;
  signal?: AbortSignal;
  /**
   * false for public endpoints (sign-in, invitations, health): a 401 there is about the
   * credentials sent, not the end of the session.
   */
  auth?: boolean;
  /** Authenticate with this bearer token instead of the session cookie. */
  bearer?: string;
}

export const CSRF_HEADER = "X-CSRF-Token";

export function apiUrl(path: string, query?: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== "") params.set(key, String(value));
  }
  const search = params.toString();
  return `${API_PREFIX}${path}${search ? `?${search}` : ""}`;
}

export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = "GET", json, form, multipart, query, signal, auth = true, bearer } = options;
  const headers: Record<string, string> = { Accept: "application/json" };
  let body: string | FormData | undefined;
  if (json !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(json);
  } else if (form !== undefined) {
    headers["Content-Type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(form).toString();
  } else if (multipart !== undefined) {
    body = multipart;
  }
  const csrf = getCsrfToken();
  if (method !== "GET" && csrf) headers[CSRF_HEADER] = csrf;
  if (bearer) headers.Authorization = `Bearer ${bearer}`;

  let response: Response;
  try {
    response = await fetch(apiUrl(path, query), { method, headers, body, signal, credentials: "same-origin" });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError(0, {
      code: "network_error",
      message: "Cannot reach the storbench server. Check your connection and try again.",
    });
  }

  if (response.status === 401 && auth && !bearer) endSession();
  if (!response.ok) throw new ApiError(response.status, await readErrorBody(response));
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

async function readErrorBody(response: Response): Promise<ApiErrorBody> {
  const fallback: ApiErrorBody = {
    code: `http_${response.status}`,
    message: `The server answered ${response.status}${response.statusText ? ` ${response.statusText}` : ""}.`,
  };
  let parsed: unknown;
  try {
    parsed = await response.json();
  } catch {
    return fallback;
  }
  if (!parsed || typeof parsed !== "object") return fallback;
  const candidate = parsed as Partial<ApiErrorBody> & { detail?: unknown };
  if (typeof candidate.message === "string") {
    return {
      code: typeof candidate.code === "string" ? candidate.code : fallback.code,
      message: candidate.message,
      errors: Array.isArray(candidate.errors) ? candidate.errors.filter(isErrorDetail) : undefined,
    };
  }
  // A plain FastAPI error ({"detail": "..."}) still deserves its text on screen.
  if (typeof candidate.detail === "string") return { ...fallback, message: candidate.detail };
  return fallback;
}

function isErrorDetail(value: unknown): value is ApiErrorDetail {
  return !!value && typeof value === "object" && typeof (value as ApiErrorDetail).reason === "string";
}

const LOCATION_PREFIXES = new Set(["body", "query", "path", "form", "header"]);

/** The field an error concerns without its location: "body.path" → "path"; "jobs.0.bs" stays. */
export function errorField(detail: ApiErrorDetail): string | undefined {
  if (!detail.field) return undefined;
  const parts = detail.field.split(".");
  if (parts.length > 1 && LOCATION_PREFIXES.has(parts[0]!)) parts.shift();
  return parts.join(".");
}

/** Error reasons for the given form fields, by field (details on other fields are left out). */
export function fieldErrors(error: unknown, fields: readonly string[]): Record<string, string[]> {
  const byField: Record<string, string[]> = {};
  if (!isApiError(error)) return byField;
  for (const detail of error.errors) {
    const field = errorField(detail);
    if (field && fields.includes(field)) (byField[field] ??= []).push(detail.reason);
  }
  return byField;
}
