import { z } from 'zod';
import { releaseStandingSchema } from './agent-update.js';

/**
 * Staged rollouts (issue 65): a release reaches the devices of its branches in waves, each a share
 * of them, and halts by itself when a wave's devices fail. "All at once" (no waves) is SPEC §2's
 * release, and the default.
 */

export const ROLLOUT_WAIT_DEFAULT_MINUTES = 30;
/** A wave waits at most 7 days before the next starts. */
export const ROLLOUT_WAIT_MAX_MINUTES = 7 * 24 * 60;
export const ROLLOUT_FAILURE_PERCENT_DEFAULT = 5;
export const ROLLOUT_FAILURE_COUNT_DEFAULT = 2;
export const ROLLOUT_WAVES_MAX = 10;

export const rolloutModes = ['all', 'waves'] as const;
export type RolloutMode = (typeof rolloutModes)[number];
/** A wave's share: a percent of the release's devices, or a number of devices; counted from the start (10 % then 50 % is 40 % more). */
export const waveUnits = ['percent', 'devices'] as const;
export type WaveUnit = (typeof waveUnits)[number];

export const rolloutLabels = { amount: 'Share', wait: 'Healthy for (minutes)', failurePercent: 'Halt above (% of a wave)', failureCount: 'or at (devices)' } as const;

export const rolloutWaveSchema = z.object({
  unit: z.enum(waveUnits, { error: `A share is one of ${waveUnits.join(', ')}.` }),
  amount: z
    .number({ error: `${rolloutLabels.amount} is required.` })
    .int(`${rolloutLabels.amount} is a whole number.`)
    .min(1, `${rolloutLabels.amount} is at least 1.`),
});
export type RolloutWave = z.infer<typeof rolloutWaveSchema>;

const THE_WHOLE_FLEET = 'The last wave must be 100 %: every device of the release is in a wave.';

/** The rollout part of the release form, and `PUT /api/release/{branch}/{version}/rollout`. */
export const rolloutFormSchema = z
  .object({
    mode: z.enum(rolloutModes, { error: `The rollout is one of ${rolloutModes.join(', ')}.` }),
    waves: z.array(rolloutWaveSchema, { error: 'Waves must be a list.' }).max(ROLLOUT_WAVES_MAX, `A rollout has at most ${ROLLOUT_WAVES_MAX} waves.`),
    waitMinutes: z
      .number({ error: `${rolloutLabels.wait} is required.` })
      .min(0, 'The wait cannot be negative.')
      .max(ROLLOUT_WAIT_MAX_MINUTES, `The wait is at most ${ROLLOUT_WAIT_MAX_MINUTES} minutes (7 days).`),
    failurePercent: z
      .number({ error: 'The failure threshold is required.' })
      .min(0, 'The failure threshold is between 0 and 100 %.')
      .max(100, 'The failure threshold is between 0 and 100 %.'),
    failureCount: z.number().int('The failure count is a whole number.').min(1, 'The failure count is at least 1 device.').nullable(),
  })
  .superRefine((form, ctx) => {
    if (form.mode !== 'waves') return;
    const { waves } = form;
    if (!waves.length) return ctx.addIssue({ code: 'custom', path: ['waves'], message: 'Add at least one wave.' });
    let percent = 0;
    let devices = 0;
    waves.forEach((w, i) => {
      const path = ['waves', i, 'amount'];
      // Below 1 has its own message already.
      if (!(w.amount >= 1)) return;
      if (w.unit === 'percent') {
        if (w.amount > 100) ctx.addIssue({ code: 'custom', path, message: 'A share is at most 100 %.' });
        else if (w.amount <= percent) ctx.addIssue({ code: 'custom', path, message: `Each wave reaches more than the one before (above ${percent} %).` });
        percent = Math.max(percent, w.amount);
      } else {
        if (w.amount <= devices) ctx.addIssue({ code: 'custom', path, message: `Each wave reaches more than the one before (above ${devices} devices).` });
        devices = Math.max(devices, w.amount);
      }
    });
    const last = waves[waves.length - 1]!;
    if (last.unit !== 'percent' || last.amount !== 100) ctx.addIssue({ code: 'custom', path: ['waves', waves.length - 1, 'amount'], message: THE_WHOLE_FLEET });
  });
export type RolloutForm = z.infer<typeof rolloutFormSchema>;

/** The form's starting values: all at once; waves, when chosen, 1 device, 10 %, 50 %, 100 %. */
export const rolloutFormDefaults: RolloutForm = {
  mode: 'all',
  waves: [
    { unit: 'devices', amount: 1 },
    { unit: 'percent', amount: 10 },
    { unit: 'percent', amount: 50 },
    { unit: 'percent', amount: 100 },
  ],
  waitMinutes: ROLLOUT_WAIT_DEFAULT_MINUTES,
  failurePercent: ROLLOUT_FAILURE_PERCENT_DEFAULT,
  failureCount: ROLLOUT_FAILURE_COUNT_DEFAULT,
};

/**
 * RUNNING: waves start one after another. PAUSED (by a person) and HALTED (by itself): no further
 * device is offered the release. ABORTED: it stays where it got to. DONE: every wave started and the
 * last stayed healthy. ROLLED_BACK: no device is offered it; those that took it go back.
 */
export const rolloutStates = ['RUNNING', 'PAUSED', 'HALTED', 'ABORTED', 'DONE', 'ROLLED_BACK'] as const;
export type RolloutState = (typeof rolloutStates)[number];
/** A rollout still going somewhere: new waves for its release wait until it is aborted. */
export const ROLLOUT_UNDER_WAY: readonly RolloutState[] = ['RUNNING', 'PAUSED', 'HALTED'];

/** What the buttons do (each with a confirmation on the page). */
export const rolloutActions = ['pause', 'resume', 'abort', 'rollback'] as const;
export type RolloutAction = (typeof rolloutActions)[number];

/** The states each action may start from. */
export const rolloutActionFrom: Record<RolloutAction, readonly (RolloutState | null)[]> = {
  pause: ['RUNNING'],
  resume: ['PAUSED', 'HALTED'],
  abort: ['RUNNING', 'PAUSED', 'HALTED'],
  // A release without waves (null) can be rolled back too.
  rollback: [null, 'RUNNING', 'PAUSED', 'HALTED', 'ABORTED', 'DONE'],
};

export const rolloutWaveStandingSchema = rolloutWaveSchema.extend({
  /** Devices in it (decided when the rollout started; devices added later join by the same rule). */
  devices: z.number().int(),
  startedAt: z.string().nullable(),
  standing: releaseStandingSchema,
});
export type RolloutWaveStanding = z.infer<typeof rolloutWaveStandingSchema>;

export const rolloutSchema = z.object({
  state: z.enum(rolloutStates),
  waves: z.array(rolloutWaveStandingSchema),
  /** The latest wave that started, from 1; 0 for a release rolled back without waves. */
  wave: z.number().int(),
  /** When the next wave starts if all stays healthy; null when none will by itself. */
  nextWaveAt: z.string().nullable(),
  waitMinutes: z.number(),
  failurePercent: z.number(),
  failureCount: z.number().int().nullable(),
  /** Why it halted, or who paused, aborted or rolled it back. */
  reason: z.string().nullable(),
  updatedAt: z.string(),
});
export type Rollout = z.infer<typeof rolloutSchema>;

export const rolloutDeviceStates = ['waiting', 'updating', 'running', 'failed'] as const;
export type RolloutDeviceState = (typeof rolloutDeviceStates)[number];

/** One device of a wave, as the wave's list shows it. */
export const rolloutDeviceSchema = z.object({
  id: z.string(),
  name: z.string(),
  wave: z.number().int(),
  state: z.enum(rolloutDeviceStates),
  reason: z.string().nullable(),
  offeredAt: z.string().nullable(),
});
export type RolloutDevice = z.infer<typeof rolloutDeviceSchema>;
export const ROLLOUT_DEVICES_PAGE = 500;
export const rolloutDevicesSchema = z.object({ devices: z.array(rolloutDeviceSchema), total: z.number().int() });
export type RolloutDevices = z.infer<typeof rolloutDevicesSchema>;

export const rolloutActionParamsSchema = z.object({ action: z.enum(rolloutActions, { error: `The action is one of ${rolloutActions.join(', ')}.` }) });
export const rolloutWaveParamsSchema = z.object({ wave: z.coerce.number({ error: 'The wave is a number.' }).int('The wave is a number.').min(1, 'Waves count from 1.') });

/** Realm ADMIN, as releases are. */
export const rolloutRoutes = {
  set: { method: 'PUT', path: '/api/release/:branch/:version/rollout', role: 'ADMIN', errors: [409] },
  act: { method: 'POST', path: '/api/release/:branch/:version/rollout/:action', role: 'ADMIN', errors: [409] },
  wave: { method: 'GET', path: '/api/release/:branch/:version/rollout/wave/:wave', role: 'ADMIN' },
} as const;
