import path from 'node:path';
import type { Plugin } from 'vite';

/**
 * The modules an entry imports statically, all the way down, as the build resolved them: known once
 * the build has seen every module (buildEnd), before chunks are made, so a chunk group's `test` can
 * leave them to the entry's own chunk.
 */
export function entryClosure(entry: string) {
  const members = new Set<string>();
  let root = '';
  const plugin: Plugin = {
    name: 'fleetlink:entry-closure',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    buildEnd() {
      members.clear();
      const pending = [path.resolve(root, entry)];
      while (pending.length) {
        const id = pending.pop()!;
        if (members.has(id)) continue;
        members.add(id);
        pending.push(...(this.getModuleInfo(id)?.importedIds ?? []));
      }
    },
  };
  return { plugin, has: (id: string) => members.has(id) };
}
