/** The query keys of the bundles and releases pages, apart: the live updates (on every page) need them, not the release code. */
export const releaseKeys = {
  bundles: ['bundles'] as const,
  bundleNames: ['bundles', 'names'] as const,
  bundleVersions: (name: string) => ['bundles', 'versions', name] as const,
  releases: ['releases'] as const,
};
