import { randomBytes } from "node:crypto";

/**
 * A new Standard Webhooks signing secret for a destination: `whsec_` and 24 random bytes in base64, the form the
 * Standard Webhooks libraries read (stand-in until outgoing-request.ts provides `newDestinationSecret`).
 */
export function newDestinationSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}
