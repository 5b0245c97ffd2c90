import { expect } from "vitest";
import { VendorError } from "@/lib/providers/vendors/vendor-error";

/*
 * Shared by the vendor adapters' tests (imported by their *.test.ts files): awaiting a failure and checking it is fit to
 * be shown anywhere, and counting what a fake received during a call.
 */

/**
 * Awaits a call that must fail with a `VendorError` whose message and string form contain none of `forbidden` (the
 * vendor's name, the key, the vendor's own wording).
 */
export async function vendorFailure(
  call: Promise<unknown>,
  forbidden: readonly (string | RegExp)[],
): Promise<VendorError> {
  const error: unknown = await call.then(
    () => {
      throw new Error("expected the call to fail");
    },
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(VendorError);
  const failure = error as VendorError;
  for (const text of [failure.message, String(failure)]) {
    for (const needle of forbidden) {
      if (typeof needle === "string") expect(text).not.toContain(needle);
      else expect(text).not.toMatch(needle);
    }
  }
  return failure;
}

/** Runs `call` and returns its result with how many requests `log` gained meanwhile. */
export async function withRequestCount<T>(
  log: readonly unknown[],
  call: () => Promise<T>,
): Promise<{ result: T; requests: number }> {
  const before = log.length;
  const result = await call();
  return { result, requests: log.length - before };
}
