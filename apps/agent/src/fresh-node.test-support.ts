import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

/**
 * Whether a fresh Node can run the agent's .ts modules as they are: Node's own TypeScript
 * stripping (22.10+). Node 20, on which CI also runs the agent's suites, cannot.
 */
export const STRIPS_TYPESCRIPT = Boolean((process.features as { typescript?: unknown }).typescript);

/** Runs an ES module `script` in a Node of its own (this one's binary, with `flags`), and answers the JSON it printed. */
export async function jsonFromFreshNode<T>(script: string, { flags = [], args = [] }: { flags?: string[]; args?: string[] } = {}): Promise<T> {
  const { stdout } = await promisify(execFile)(process.execPath, [...flags, '--input-type=module', '-e', script, ...args]);
  return JSON.parse(stdout) as T;
}
