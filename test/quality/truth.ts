import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";

/*
 * The labelled truth of one corpus site (test/quality/truth/<host>.json): what a careful human reader finds on the
 * site's pages, written by reading them, never by running our extractors. Only addresses at the site's own domain
 * are listed: any other address on its pages is one the product must not return.
 */

export const TRUTH_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "truth");
/** Sites written after the extractors were tuned, and never tuned on: their figures are the honest ones. */
export const HOLDOUT_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "holdout");

/** The address formats a truth may name (the ones our pattern inference speaks). */
export const EMAIL_PATTERNS = [
  "{first}.{last}",
  "{first}{last}",
  "{f}{last}",
  "{f}.{last}",
  "{first}",
  "{last}",
  "{first}_{last}",
  "{first}-{last}",
  "{last}.{first}",
  "{last}{first}",
  "{last}{f}",
  "{first}{l}",
  "{f}{l}",
  "{last}_{first}",
] as const;

const truthEmailSchema = z.strictObject({
  address: z.string().regex(/^[^\s@A-Z]+@[a-z0-9.-]+\.[a-z]+$/, "a lower-case address"),
  type: z.enum(["personal", "generic"]),
  firstName: z.string().min(1).nullable(),
  lastName: z.string().min(1).nullable(),
  position: z.string().min(1).nullable(),
  /** Paths of the pages that show the address, e.g. "/contact/". */
  pages: z.array(z.string().startsWith("/")).min(1),
});

export const siteTruthSchema = z.strictObject({
  host: z.string().regex(/^[a-z0-9-]+(?:\.[a-z0-9-]+)*\.example$/, "a host under .example"),
  /** The real-site shapes this site reproduces, for people reading the corpus. */
  shapes: z.array(z.string()),
  emails: z.array(truthEmailSchema),
  pattern: z.enum(EMAIL_PATTERNS).nullable(),
  technologies: z.array(z.string()),
  /** Implied by those seen, or seen on thin evidence: neither required nor a false positive. */
  acceptableTechnologies: z.array(z.string()).default([]),
});

export type TruthEmail = z.infer<typeof truthEmailSchema>;
export type SiteTruth = z.infer<typeof siteTruthSchema>;

/** Every truth file, sorted by host; a malformed file fails the load, naming the file. */
export async function loadTruths(directory: string = TRUTH_DIR): Promise<SiteTruth[]> {
  const files = (await readdir(directory)).filter((name) => name.endsWith(".json")).sort();
  return Promise.all(
    files.map(async (name) => {
      const text = await readFile(path.join(directory, name), "utf8");
      try {
        return siteTruthSchema.parse(JSON.parse(text));
      } catch (error) {
        const reason = error instanceof z.ZodError ? z.prettifyError(error) : String(error);
        throw new Error(`${path.join(directory, name)}: ${reason}`, { cause: error });
      }
    }),
  );
}
