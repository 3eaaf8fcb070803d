// Client for the plugin routes (docs/HTTP_API.md). URLs are relative to the iframe's
// <base href="plugin/tb_perf/">, which keeps them working under TensorBoard's --path_prefix.

import type { NoticesAnswer, Progress, RunInfo } from "./types";

const POLL_INTERVAL_MS = 500;

/** A request the server refused, with the `{"error": {code, message}}` it sent. */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export type ProgressListener = (progress: Progress) => void;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function progressOf(body: unknown): Progress | null {
  return isRecord(body) && isRecord(body["progress"])
    ? (body["progress"] as unknown as Progress)
    : null;
}

function errorOf(status: number, body: unknown): ApiError {
  const error = isRecord(body) ? body["error"] : undefined;
  if (isRecord(error) && typeof error["message"] === "string") {
    return new ApiError(String(error["code"] ?? "error"), error["message"]);
  }
  return new ApiError("http_error", `The server answered HTTP ${status}.`);
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

async function fetchOrExplain(url: string, signal: AbortSignal): Promise<Response> {
  try {
    return await fetch(url, { signal, headers: { Accept: "application/json" } });
  } catch (error) {
    if (signal.aborted) throw error;
    throw new ApiError(
      "unreachable",
      "The TensorBoard server did not answer. Is it still running?",
    );
  }
}

/** GET a JSON route; while it answers 202 (still ingesting), report progress and poll again. */
export async function getJson<T>(
  url: string,
  signal: AbortSignal,
  onProgress?: ProgressListener,
): Promise<T> {
  for (;;) {
    const response = await fetchOrExplain(url, signal);
    const body: unknown = await response.json().catch(() => null);
    const progress = response.status === 202 ? progressOf(body) : null;
    if (progress) {
      onProgress?.(progress);
      await delay(POLL_INTERVAL_MS, signal);
      continue;
    }
    if (!response.ok) throw errorOf(response.status, body);
    if (body === null)
      throw new ApiError("bad_response", "The server sent a response that is not JSON.");
    return body as T;
  }
}

/** A route's query string: the run, then the parameters that are not null. */
export function runQuery(run: string, extra: Record<string, string | number | null> = {}): string {
  const params = new URLSearchParams({ run });
  for (const [key, value] of Object.entries(extra)) {
    if (value !== null) params.set(key, String(value));
  }
  return params.toString();
}

export function fetchRuns(signal: AbortSignal): Promise<RunInfo[]> {
  return getJson<RunInfo[]>("./runs", signal);
}

export function fetchNotices(signal: AbortSignal): Promise<NoticesAnswer> {
  return getJson<NoticesAnswer>("./notices", signal);
}
