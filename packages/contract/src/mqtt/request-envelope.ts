import { JsonReader } from '../json-reader.js';

/**
 * The console's requests to an agent (`fl/d/{id}/req`) and the names they go by, without zod: an
 * agent reads an envelope as soon as it connects (the console's latency ping), and an idle agent
 * that never loads zod is about 4 MB lighter (issue 73). The schemas of the parameters, which a
 * request's work needs anyway, stay in payloads.ts.
 */

/** Request names the agent understands. */
export const RequestName = {
  Ping: 'ping',
  Migrate: 'migrate',
  Properties: 'properties',
  Command: 'command',
  CreateFolder: 'file.mkdir',
  Rename: 'file.rename',
  Delete: 'file.delete',
  DiskScan: 'disk.scan',
  SendFile: 'file.send',
  FetchFile: 'file.fetch',
  CancelTransfer: 'transfer.cancel',
  SetMonitors: 'monitors.set',
  OpenTunnel: 'tunnel.open',
  CloseTunnel: 'tunnel.close',
  OpenTerminal: 'terminal.open',
} as const;

/** Reasons in a reply's `code`. */
export const ReplyCode = { FolderNotEmpty: 'FOLDER_NOT_EMPTY', Exists: 'EXISTS', NotFound: 'NOT_FOUND' } as const;

/** `fl/d/{id}/req`: a request from the console; the agent answers on `replyTo` before `deadline`. */
export interface RequestEnvelope {
  /** 1 to 64 characters. */
  id: string;
  /** The topic of the answer, 1 to 256 characters. */
  replyTo: string;
  /** 1 to 64 characters: one of RequestName, or one the agent answers it does not know. */
  name: string;
  /** The request's own, checked by the agent against the request's schema; `{}` when absent. */
  parameters: Record<string, unknown>;
  /** Epoch milliseconds after which the console no longer waits. */
  deadline?: number;
}

const read = new JsonReader((field) => new Error(`The request envelope is not valid: ${field}.`));

/** An envelope as received (parsed JSON), with only its own fields; throws, naming the first field that is wrong. */
export function readRequestEnvelope(value: unknown): RequestEnvelope {
  const envelope = read.record(value, 'the envelope');
  const id = read.text(envelope.id, 'id', 64);
  const replyTo = read.text(envelope.replyTo, 'replyTo', 256);
  const name = read.text(envelope.name, 'name', 64);
  const parameters = envelope.parameters === undefined ? {} : read.record(envelope.parameters, 'parameters');
  if (envelope.deadline === undefined) return { id, replyTo, name, parameters };
  return { id, replyTo, name, parameters, deadline: read.integer(envelope.deadline, 'deadline') };
}
