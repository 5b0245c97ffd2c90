import { parseCommandLine, UsageError } from "./command-line";
import { formatNotice } from "./output-lines";
import { runRelay } from "./relay";
import { describeServiceFailure } from "./service-calls";
import { USAGE } from "./usage";

/**
 * `signalbox <command>`: runs the command and resolves with the exit code (0 stopped by SIGINT or SIGTERM, 1 the
 * relay failed, 2 a wrong command line). A second Ctrl-C exits at once (130).
 */
export async function main(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): Promise<number> {
  let command;
  try {
    command = parseCommandLine(argv, env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`signalbox: ${error.message}\nRun \`signalbox --help\` for usage.\n`);
    return 2;
  }
  if (command.kind === "help") {
    process.stdout.write(USAGE);
    return 0;
  }

  const { options } = command;
  const notice = (text: string) => process.stderr.write(`${formatNotice(new Date(), text)}\n`);
  const stopping = new AbortController();
  const stop = () => {
    if (stopping.signal.aborted) process.exit(130);
    notice("Stopping: the delivery being forwarded, if any, stays pending.");
    stopping.abort();
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  try {
    await runRelay(options, {
      signal: stopping.signal,
      print: (line) => process.stdout.write(`${line}\n`),
      notice,
    });
    notice("Stopped.");
    return 0;
  } catch (error) {
    process.stderr.write(`signalbox: ${describeServiceFailure(error, options.serviceUrl)}\n`);
    return 1;
  } finally {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
  }
}
