// A small fake of the storbench API at the network boundary: tests stub
// global fetch with it and answer contract-shaped JSON per "METHOD /path".
// Server-Sent Events streams (EventSource) are faked too: the test opens them and sends events.

import { act } from "@testing-library/react";
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
  /** The event streams the app opened to a path ("/api/v1/runs/7/events"), oldest first. */
  streamsTo: (path: string) => FakeEventSource[];
}

/**
 * EventSource as the app sees it; the test plays the server: open(), emit(name, data), fail().
 * Events sent after the app closed the stream are dropped, as a closed connection would.
 */
export class FakeEventSource extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  readonly CONNECTING = 0;
  readonly OPEN = 1;
  readonly CLOSED = 2;
  readonly url: string;
  readonly withCredentials: boolean;
  readyState = 0;
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;

  constructor(url: string | URL, init?: EventSourceInit) {
    super();
    this.url = new URL(String(url), "http://storbench.test").href;
    this.withCredentials = init?.withCredentials ?? false;
  }

  get path(): string {
    return new URL(this.url).pathname;
  }

  get closed(): boolean {
    return this.readyState === FakeEventSource.CLOSED;
  }

  close(): void {
    this.readyState = FakeEventSource.CLOSED;
  }

  /** The server answered 200 text/event-stream. */
  open(): void {
    if (this.closed) return;
    act(() => {
      this.readyState = FakeEventSource.OPEN;
      this.deliver(new Event("open"));
    });
  }

  /** One event: `event: <name>` with `data: <JSON of data>`. */
  emit(name: string, data: unknown): void {
    if (this.closed) return;
    act(() => {
      this.deliver(new MessageEvent(name, { data: JSON.stringify(data) }));
    });
  }

  /** The connection dropped: the browser would reconnect by itself. */
  fail(): void {
    if (this.closed) return;
    act(() => {
      this.readyState = FakeEventSource.CONNECTING;
      this.deliver(new Event("error"));
    });
  }

  private deliver(event: Event): void {
    this.dispatchEvent(event);
    if (event.type === "open") this.onopen?.(event);
    if (event.type === "error") this.onerror?.(event);
    if (event.type === "message") this.onmessage?.(event as MessageEvent);
  }
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

  const streams: FakeEventSource[] = [];
  vi.stubGlobal(
    "EventSource",
    class extends FakeEventSource {
      constructor(url: string | URL, init?: EventSourceInit) {
        super(url, init);
        streams.push(this);
      }
    },
  );

  return {
    calls,
    on: (route, handler) => handlers.set(route, handler),
    callsTo: (route) => calls.filter((call) => `${call.method} ${call.path}` === route),
    streamsTo: (path) => streams.filter((stream) => stream.path === path),
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
