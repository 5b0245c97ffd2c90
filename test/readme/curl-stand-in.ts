/**
 * What the README's examples need of curl, for machines without it (`npm test` needs nothing but Node): `-X`, `-H`,
 * `-d` and `-o`, with curl's defaults (`-d` means POST and, without a Content-Type, a form body). Prints the body (or
 * writes it to the `-o` file) and then the status on a line of its own, as the test's real-curl wrapper does.
 */
import { writeFile } from "node:fs/promises";
import process from "node:process";

const args = process.argv.slice(2);
let method: string | undefined;
let output: string | undefined;
let data: string | undefined;
let url: string | undefined;
const headers = new Headers();
for (let index = 0; index < args.length; index += 1) {
  const arg = args[index]!;
  const next = () => {
    const value = args[++index];
    if (value === undefined) throw new Error(`curl stand-in: ${arg} needs a value`);
    return value;
  };
  if (arg === "-X") method = next();
  else if (arg === "-H") {
    const header = next();
    const colon = header.indexOf(":");
    headers.append(header.slice(0, colon).trim(), header.slice(colon + 1).trim());
  } else if (arg === "-d") data = next();
  else if (arg === "-o") output = next();
  else if (arg.startsWith("-")) throw new Error(`curl stand-in: ${arg} is not supported; add it here or install curl`);
  else url = arg;
}
if (!url) throw new Error("curl stand-in: no URL");
if (data !== undefined && !headers.has("content-type"))
  headers.set("content-type", "application/x-www-form-urlencoded");
const response = await fetch(url, {
  method: method ?? (data === undefined ? "GET" : "POST"),
  headers,
  body: data,
  redirect: "manual",
});
const body = Buffer.from(await response.arrayBuffer());
if (output) await writeFile(output, body);
else process.stdout.write(body);
process.stdout.write(`\n${response.status}`);
