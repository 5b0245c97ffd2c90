import { parseArgs } from "node:util";
import { measureQuality } from "./measure";
import { formatReport } from "./report";
import { HOLDOUT_DIR, TRUTH_DIR } from "./truth";

/*
 * `npm run quality [-- --json] [-- --site=<host>] [-- --holdout]`: the enrichment quality figures over the development
 * corpus, or with --holdout over the held-out sites (test/quality/holdout/, never tuned on). A measurement, so
 * it exits 0 whatever the figures; 1 only when the run itself failed (a site's pipeline threw, or --site named a host without a truth file).
 */

const { values } = parseArgs({
  options: {
    json: { type: "boolean", default: false },
    site: { type: "string", multiple: true },
    holdout: { type: "boolean", default: false },
  },
});

const report = await measureQuality({ hosts: values.site, truthDir: values.holdout ? HOLDOUT_DIR : TRUTH_DIR });
console.info(values.json ? JSON.stringify(report, null, 2) : formatReport(report));
if (report.sites.some((site) => site.error !== null)) process.exitCode = 1;
