import { z } from 'zod';

/**
 * The web terminal (issue 63): a shell on a live device, in the browser (DESIGN §5).
 *
 * - The page opens a WebSocket at `terminalPath(deviceId)` on the console and sends its bearer token
 *   as the first message with the window's size (never a cookie, never in the URL, where logs keep
 *   it); its Origin must be the console's own.
 * - The console asks the agent (MQTT `terminal.open`) to open a relay WebSocket at
 *   `agentTerminalUrl(session, token)`, with its device account and a single-use token bound to
 *   that device and that session; the agent runs a pseudo-terminal and joins the two.
 * - On both sockets binary frames are the terminal's bytes; text frames are the JSON messages below.
 */
export const TERMINAL_PATH_PREFIX = '/api/terminal/';
export const terminalPath = (deviceId: string) => `${TERMINAL_PATH_PREFIX}${deviceId}`;

export const AGENT_TERMINAL_PREFIX = '/api/agent/terminal/';
export const agentTerminalUrl = (sessionId: string, token: string) => `${AGENT_TERMINAL_PREFIX}${sessionId}?token=${encodeURIComponent(token)}`;

/** The defaults of TERMINAL_IDLE_MINUTES and TERMINAL_MAX_SESSIONS. */
export const TERMINAL_IDLE_MINUTES_DEFAULT = 15;
export const TERMINAL_MAX_SESSIONS_DEFAULT = 4;

/** How long the console waits for the page's first message. */
export const TERMINAL_AUTH_TIMEOUT_MS = 10_000;

/** The largest frame either side sends: a paste of a few pages, or a burst of output. */
export const TERMINAL_FRAME_MAX = 64 * 1024;

export const terminalSizeSchema = z.object({
  cols: z.number().int().min(2).max(1000),
  rows: z.number().int().min(1).max(1000),
});
export type TerminalSize = z.infer<typeof terminalSizeSchema>;

/** The page's first message: its bearer token and the terminal's size. */
export const terminalHelloSchema = terminalSizeSchema.extend({ token: z.string().min(1).max(16_384) });
export type TerminalHello = z.infer<typeof terminalHelloSchema>;

/**
 * What the page says later: the window's new size; `pause`/`resume` when the page's terminal has
 * more output waiting to be drawn than it wants (the console then stops reading from the device).
 */
export const terminalControlSchema = z.discriminatedUnion('type', [
  terminalSizeSchema.extend({ type: z.literal('resize') }),
  z.object({ type: z.literal('pause') }),
  z.object({ type: z.literal('resume') }),
]);
export type TerminalControl = z.infer<typeof terminalControlSchema>;

/** Why a session ended. */
export const terminalEndReasons = ['closed', 'exit', 'offline', 'idle', 'refused', 'lost', 'console', 'account'] as const;
export type TerminalEndReason = (typeof terminalEndReasons)[number];

/** What the console tells the page. */
export const terminalEventSchema = z.discriminatedUnion('type', [
  /** The shell runs: output follows. */
  z.object({ type: z.literal('ready'), sessionId: z.string() }),
  /** The session is over, and why, in words for the person. The socket closes after it. */
  z.object({ type: z.literal('end'), reason: z.enum(terminalEndReasons), message: z.string() }),
]);
export type TerminalEvent = z.infer<typeof terminalEventSchema>;

/**
 * What travels on the relay as text, besides the bytes: the console passes the page's size on;
 * the agent says how the shell ended.
 */
export const terminalRelayMessageSchema = z.discriminatedUnion('type', [
  terminalSizeSchema.extend({ type: z.literal('resize') }),
  z.object({ type: z.literal('exit'), exitCode: z.number().int(), signal: z.number().int().nullable() }),
]);
export type TerminalRelayMessage = z.infer<typeof terminalRelayMessageSchema>;

/**
 * Close codes of the page's socket when the session cannot start: 4000 + the HTTP status the same
 * refusal would get (the socket is already open when the token arrives), and Ended once a session ran.
 */
export const TerminalClose = {
  Ended: 4000,
  BadRequest: 4400,
  Unauthorized: 4401,
  Forbidden: 4403,
  NotFound: 4404,
  /** The device is offline, or already has TERMINAL_MAX_SESSIONS sessions. */
  Conflict: 4409,
  Unavailable: 4503,
} as const;

/** The words a page shows when the session ends, by reason (the console may say more). */
export const terminalEndMessages: Record<TerminalEndReason, string> = {
  closed: 'The terminal was closed.',
  exit: 'The shell exited.',
  offline: 'The device went offline.',
  idle: 'The session ended after a time without input.',
  refused: 'The device could not open a terminal.',
  lost: 'The connection to the device was lost.',
  console: 'The console is stopping.',
  account: 'Your account was disabled or deleted: ask your Fleetlink administrator.',
};
