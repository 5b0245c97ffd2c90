import type { z } from "zod";
import type { formFieldSchema } from "@/lib/contracts/webhooks";

export type FormField = z.infer<typeof formFieldSchema>;

const essence = (contentType: string | null) => (contentType ?? "").split(";")[0]!.trim().toLowerCase();

/**
 * A form body decoded as fields, in the order sent and with repeated names kept: `application/x-www-form-urlencoded`
 * (Slack, Twilio) by the WHATWG URL parser, `multipart/form-data` by the platform's own (`Response.formData()`: no
 * request is made); file parts by name, filename, type and size, never their content. Null for any other body, and
 * for a multipart body that does not parse. The body is at most 1 MiB as stored (MAX_DELIVERY_BYTES), or 4 MiB once
 * decoded from its Content-Encoding (MAX_DECODED_BYTES), which bounds what decoding holds.
 */
export async function toFormFields(body: Uint8Array, contentType: string | null): Promise<FormField[] | null> {
  const type = essence(contentType);
  if (type === "application/x-www-form-urlencoded") {
    const text = new TextDecoder("utf-8").decode(body);
    return Array.from(new URLSearchParams(text), ([name, value]) => ({ name, value }));
  }
  if (type !== "multipart/form-data") return null;
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(body), { headers: { "content-type": contentType! } }).formData();
  } catch {
    return null; // no boundary, a broken part: the body is still served as `{ raw }` and by /raw
  }
  return Array.from(form, ([name, value]): FormField =>
    typeof value === "string"
      ? { name, value }
      : { name, filename: value.name, type: value.type === "" ? null : value.type, size: value.size },
  );
}
