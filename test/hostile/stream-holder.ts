import { openEventStreams } from "./event-stream-load";

/*
 * Holds event streams open in a process of its own, so that draining them does not share an event loop with the test
 * that times other requests (as real clients would not). Argument: JSON `{ baseUrl, keys, count }`. Prints `open` once
 * every stream answered 200 (or `failed <reason>` and exits 1); closes them all and exits on SIGTERM.
 */

const { baseUrl, keys, count } = JSON.parse(process.argv[2]!) as { baseUrl: string; keys: string[]; count: number };

openEventStreams(baseUrl, keys, count).then(
  (streams) => {
    process.stdout.write("open\n");
    process.once("SIGTERM", () => {
      for (const stream of streams) stream.close();
      process.exit(0);
    });
  },
  (error: unknown) => {
    process.stdout.write(`failed ${String(error)}\n`);
    process.exit(1);
  },
);
