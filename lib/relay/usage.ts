import { DEFAULT_SERVICE_URL } from "./command-line";

/** `signalbox --help`. */
export const USAGE = `Usage: signalbox listen --forward-to <url> [--endpoint <we_…>] [--ack | --no-ack]

Forwards the webhook deliveries held by a Signalbox service to a receiver on this machine (behind NAT is fine:
the relay only makes outgoing requests). It first forwards every delivery still pending (unacknowledged), oldest
first, so what arrived while it was off comes through when it is back, then follows new ones as they arrive.

Options
  -f, --forward-to <url>   Where to POST each delivery: http(s)://host[:port]/path, host:port/path or a port.
  -e, --endpoint <we_…>    Only this webhook endpoint's deliveries (default: every endpoint of the workspace).
      --ack                Acknowledge a delivery once the receiver answers it with a 2xx (the default).
      --no-ack             Acknowledge nothing: deliveries stay pending (each is still forwarded once per run).
  -h, --help               This text.

Environment
  SIGNALBOX_API_KEY        An API key of the workspace (required): scope inbox:read, and inbox:ack with --ack.
  SIGNALBOX_URL            The service (default ${DEFAULT_SERVICE_URL}).

Guarantees
  Each delivery is POSTed with its exact body bytes and the sender's headers (hop-by-hop and framing headers
  removed), in order: the next delivery is not forwarded before the one before it got a 2xx. A failure (any other
  status, a refused connection, a timeout after 30 s) is printed and retried with a growing delay (capped at 30 s),
  for as long as it takes. At least once: a delivery is acknowledged only after a 2xx from the receiver, so one
  forwarded just before a crash or Ctrl-C may be forwarded again by the next run; within one run none is forwarded
  twice. The relay reconnects by itself and catches up on what arrived meanwhile.

Output: one line per forwarding attempt: time, [status], event type, latency, delivery id.
  2026-11-28 14:03:07  [200]  invoice.paid  12 ms  0b7c6f0e-6a5e-4a0e-9a8e-3d2b1c0f9e8d

Exit codes: 0 stopped by Ctrl-C (SIGINT) or SIGTERM; 1 the service refused the key or could not be reached;
2 a wrong command line or a missing SIGNALBOX_API_KEY.
`;
