import { createWriteStream, mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AGENT_BUNDLE_NAME, agentBundleOf, AgentProperty, agentReleaseRoutes, type AgentRelease, type UpdateStatus } from '@fleetlink/contract';
import { SingleFlight } from '../enrollment-loop.js';
import { getBlob } from '../files/blob-http.js';
import { log } from '../log.js';
import { Refused } from '../refused.js';
import type { AgentState } from '../store.js';
import { AGENT_VERSION } from '../version.js';
import type { Installation } from './installation.js';
import { fetchRelease } from './release-check.js';

/** What a check did, and the switch to a bundle it readied. */
export interface UpdateCheck {
  message: string;
  handOver?: () => Promise<void>;
}

type AgentBundle = NonNullable<AgentRelease['release']>['bundles'][number];

const DOWNLOAD_TIMEOUT_MS = 10 * 60_000;

/**
 * Self-update (issue 32): the agent asks for its device's release (at start, periodically, on the
 * `update` command); when the release's agent bundle is another version it downloads it over its own
 * account, checks the SHA-256 the release gave, unpacks it beside the running one and asks the
 * launcher to switch (exit code), which runs it on trial and rolls back by itself (launcher/fleetlink-agent).
 * A version that failed is not tried again by itself: only the `update` command, or a newer release, does.
 */
export class SelfUpdate {
  private status: UpdateStatus = 'CURRENT';
  private target = AGENT_VERSION;
  private error?: string;
  /** Whether the last failure was the way to the bundle (not the bundle), so the periodic check tries again. */
  private retry = false;
  private readonly checking = new SingleFlight<UpdateCheck>();

  constructor(
    private readonly installation: Installation,
    private readonly state: () => AgentState,
    /** Properties changed: the agent publishes them. */
    private readonly changed: () => Promise<void>,
    /** Ends the agent with the launcher's update code, once the bundle is in place. */
    private readonly handOver: () => Promise<void>,
  ) {
    const failure = installation.failure();
    if (failure) this.failed(failure.version, `rolled back: ${failure.reason}`);
    // Not on trial: what a rollback or an interrupted update left behind goes.
    if (!installation.read('trial')) this.pruneBundles();
  }

  /** The SPEC §3 keys about the agent's code, as they stand now. */
  properties(): Record<string, string> {
    return {
      [AgentProperty.BundleVersion]: AGENT_VERSION,
      [AgentProperty.LauncherVersion]: this.installation.launcherVersion,
      [AgentProperty.UpdateBundleVersion]: this.target,
      [AgentProperty.UpdateStatus]: this.status,
      ...(this.error ? { [AgentProperty.UpdateError]: this.error } : {}),
      ...this.installation.restartProperties(),
    };
  }

  /**
   * Online: a bundle on trial has made it, so the launcher keeps it; bundles other than this one and
   * the one before it go. Answers whether a trial ended.
   */
  online(): boolean {
    const confirmed = this.installation.confirm(AGENT_VERSION);
    if (confirmed) {
      log('info', 'update done: this bundle came online', { version: AGENT_VERSION });
      this.status = 'CURRENT';
      this.error = undefined;
      this.pruneBundles();
    }
    return confirmed;
  }

  /**
   * Asks for the release and readies its agent bundle; `force` tries a version that failed before.
   * Answers what happened, in words, and when a bundle is ready the hand-over to the launcher, which
   * the caller runs once its answer is on its way.
   */
  check(force = false): Promise<UpdateCheck> {
    return this.checking.run(() => this.update(force));
  }

  private async update(force: boolean): Promise<UpdateCheck> {
    const { release, waiting } = await fetchRelease(this.state());
    const bundle = release && agentBundleOf(release.bundles);
    if (!release || !bundle) {
      this.target = AGENT_VERSION;
      this.installation.clearFailure();
      if (this.status !== 'CURRENT') await this.settle('CURRENT');
      return { message: release ? `The release ${release.branch} ${release.version} holds no ${AGENT_BUNDLE_NAME} bundle: nothing to update.` : "No release for this device's branch yet: nothing to update." };
    }
    if (bundle.version === AGENT_VERSION) {
      this.target = AGENT_VERSION;
      this.installation.clearFailure();
      if (this.status !== 'CURRENT') await this.settle('CURRENT');
      return { message: `The agent runs ${AGENT_BUNDLE_NAME} ${AGENT_VERSION}, the bundle of release ${release.branch} ${release.version}: nothing to update.${waitingText(waiting)}` };
    }
    if (this.status === 'FAILED' && this.target === bundle.version && !force && !this.retry) {
      return { message: `The update to ${bundle.version} failed (${this.error}); the \`update\` command tries it again.` };
    }
    this.target = bundle.version;
    await this.settle('UPDATING');
    log('info', 'updating', { from: AGENT_VERSION, to: bundle.version, release: `${release.branch} ${release.version}` });
    try {
      await this.install(bundle);
    } catch (err) {
      const message = (err as Error).message;
      log('warn', 'update failed', { to: bundle.version, err: message });
      this.failed(bundle.version, message);
      // The console or the network away: the next check tries again. A refused bundle waits for `update`.
      this.retry = !(err instanceof Refused);
      await this.changed();
      throw err instanceof Refused ? err : new Refused(`The update to ${bundle.version} failed: ${message}`);
    }
    this.installation.write('next', bundle.version);
    return {
      message: `Updating from ${AGENT_VERSION} to ${bundle.version} (release ${release.branch} ${release.version}): the agent restarts with it, and goes back to ${AGENT_VERSION} if it does not come online.`,
      handOver: this.handOver,
    };
  }

  /** Downloads the bundle, checks its SHA-256 and size, and unpacks it into bundles/. */
  private async install(bundle: AgentBundle): Promise<void> {
    const { consoleUrl, mqtt } = this.state();
    const downloads = path.join(this.installation.home, 'downloads');
    mkdirSync(downloads, { recursive: true });
    const file = path.join(downloads, `${bundle.name}-${bundle.version}.tar.gz.${process.pid}.part`);
    try {
      const res = await getBlob({ consoleUrl, ...mqtt }, routePath(bundle), AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS), `the bundle ${bundle.name} ${bundle.version}`);
      // node:crypto only now: an agent that is not updating does not carry it (issue 73, see execute.ts).
      const hash = process.getBuiltinModule('node:crypto').createHash('sha256');
      let size = 0;
      const count = new Transform({
        transform(chunk: Buffer, _enc, done) {
          size += chunk.length;
          if (size > bundle.size) return done(new Refused(`The bundle ${bundle.version} is larger than the release says (${bundle.size} bytes).`));
          hash.update(chunk);
          done(null, chunk);
        },
      });
      await pipeline(res, count, createWriteStream(file));
      const sha256 = hash.digest('hex');
      if (sha256 !== bundle.sha256) {
        throw new Refused(`The downloaded bundle ${bundle.version} is not the one released: its SHA-256 is ${sha256}, the release says ${bundle.sha256}.`);
      }
      const { unpackBundle } = await import('./unpack-bundle.js');
      await unpackBundle(file, this.installation.bundlesDir, bundle.name, bundle.version);
    } finally {
      rmSync(file, { force: true });
    }
  }

  private failed(version: string, error: string) {
    this.retry = false;
    this.status = 'FAILED';
    this.target = version;
    this.error = error;
  }

  private async settle(status: UpdateStatus) {
    this.status = status;
    this.error = undefined;
    await this.changed();
  }

  /** Keeps the running bundle and the previous one (a rollback's way back); the rest (failed ones, half-unpacked ones) go. */
  private pruneBundles() {
    // `current` too: a bundle whose package.json says another version than its folder must not lose its own files.
    const keep = new Set([AGENT_VERSION, this.installation.read('current'), this.installation.read('previous')]);
    try {
      for (const name of readdirSync(this.installation.bundlesDir)) {
        if (!keep.has(name)) rmSync(path.join(this.installation.bundlesDir, name), { recursive: true, force: true });
      }
    } catch (err) {
      log('warn', 'old bundles not removed', { err: (err as Error).message });
    }
  }
}

/** A staged rollout holding a newer release back from this device (issue 65), in words. */
const waitingText = (w: AgentRelease['waiting']) =>
  w ? ` Release ${w.branch} ${w.version} reaches this device in wave ${w.wave}${w.state === 'RUNNING' ? ` (wave ${w.started} has started)` : ` (its rollout is ${w.state.toLowerCase()})`}: waiting for wave ${w.wave}.` : '';

const routePath = (b: AgentBundle) =>
  agentReleaseRoutes.agentBundle.path.replace(':name', encodeURIComponent(b.name)).replace(':version', encodeURIComponent(b.version));
