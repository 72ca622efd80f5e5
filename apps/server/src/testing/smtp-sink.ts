import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The message as it arrived, headers and body. */
  raw: string;
}

export interface SmtpSink {
  port: number;
  mails: ReceivedMail[];
  close(): Promise<void>;
}

/** Starts smtp-sink.mjs (a real SMTP server, in a child process) and collects what it receives. */
export async function startSmtpSink(opts: { refuse?: boolean } = {}): Promise<SmtpSink> {
  const script = fileURLToPath(new URL('./smtp-sink.mjs', import.meta.url));
  const child = spawn(process.execPath, [script, ...(opts.refuse ? ['--refuse'] : [])], { stdio: ['ignore', 'pipe', 'inherit'] });
  const mails: ReceivedMail[] = [];
  const port = await new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`smtp-sink exited with ${code} before it listened`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      const event = JSON.parse(line) as { port?: number } & ReceivedMail;
      if (event.port) resolve(event.port);
      else mails.push(event);
    });
  });
  child.removeAllListeners('exit');
  return {
    port,
    mails,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
