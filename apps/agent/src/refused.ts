/**
 * A request the agent will not or cannot do: the message is what the person who asked reads, the
 * code (ReplyCode) what the console branches on. Not an agent failure, so it is not logged as one.
 */
export class Refused extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}
