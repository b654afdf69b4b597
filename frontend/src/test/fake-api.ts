// A small fake of the storbench API at the network boundary: tests stub
// global fetch with it and answer contract-shaped JSON per "METHOD /path".

import { vi } from "vitest";

export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  /** Whether the browser would send cookies ("same-origin" for every API call). */
  credentials: RequestCredentials | undefined;
  /** Parsed JSON, the raw text, or the FormData of a multipart upload. */
  body: unknown;
  rawBody: string | undefined;
}

export interface FakeResponse {
  status?: number;
  body?: unknown;
}

export type FakeHandler = FakeResponse | ((request: FakeRequest) => FakeResponse);

export interface FakeApi {
  calls: FakeRequest[];
  /** Replace or add handlers while a test runs. */
  on: (route: string, handler: FakeHandler) => void;
  callsTo: (route: string) => FakeRequest[];
}

export function installFakeApi(routes: Record<string, FakeHandler>): FakeApi {
  const handlers = new Map(Object.entries(routes));
  const calls: FakeRequest[] = [];

  const fetchStub = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), "http://storbench.test");
    const method = (init.method ?? "GET").toUpperCase();
    const rawBody = typeof init.body === "string" ? init.body : undefined;
    const headers = { ...(init.headers as Record<string, string> | undefined) };
    let body: unknown = rawBody;
    if (rawBody && headers["Content-Type"] === "application/json") body = JSON.parse(rawBody);
    // Uploads: the test reads the fields and files the app put in the form.
    if (init.body instanceof FormData) body = init.body;
    const request: FakeRequest = {
      method,
      path: url.pathname,
      query: url.searchParams,
      headers,
      credentials: init.credentials,
      body,
      rawBody,
    };
    calls.push(request);

    const handler = handlers.get(`${method} ${url.pathname}`);
    const answer: FakeResponse = !handler
      ? { status: 404, body: { code: "not_found", message: `No fake for ${method} ${url.pathname}` } }
      : typeof handler === "function"
        ? handler(request)
        : handler;
    const status = answer.status ?? 200;
    return new Response(status === 204 ? null : JSON.stringify(answer.body ?? {}), {
      status,
      headers: { "Content-Type": "application/json" },
    });
  });
  vi.stubGlobal("fetch", fetchStub);

  return {
    calls,
    on: (route, handler) => handlers.set(route, handler),
    callsTo: (route) => calls.filter((call) => `${call.method} ${call.path}` === route),
  };
}

/** Answers each call with the next response of a sequence, repeating the last one. */
export function sequence(...responses: FakeResponse[]): (request: FakeRequest) => FakeResponse {
  let index = 0;
  return () => {
    const response = responses[Math.min(index, responses.length - 1)]!;
    index += 1;
    return response;
  };
}
