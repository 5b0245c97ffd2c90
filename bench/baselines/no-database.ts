/**
 * The ceiling: a bare node:http server that reads the body and answers 200 with a new delivery id, storing nothing.
 * What HTTP alone costs on this machine, for the same bodies and connections.
 */
import { randomUUID } from "node:crypto";
import { serveBare } from "./bare-server";

serveBare(async () => randomUUID());
