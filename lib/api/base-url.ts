import { env } from "@/lib/env";

/** The origin clients reach this service at: PUBLIC_BASE_URL when set (behind a proxy), else the request's Host. */
export function publicBaseUrl(request: Request): string {
  const configured = env().PUBLIC_BASE_URL;
  if (configured) return configured;
  const url = new URL(request.url);
  const host = request.headers.get("host");
  return host ? `${url.protocol}//${host}` : url.origin;
}
