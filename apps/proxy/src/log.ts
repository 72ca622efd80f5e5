/** The logger the proxy writes to (pino's shape): the console passes its own, a standalone proxy pino. */
export interface ProxyLog {
  info(o: object, msg: string): void;
  warn(o: object, msg: string): void;
  error(o: object, msg: string): void;
}
