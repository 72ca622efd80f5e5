import type { MonitorDefinition, MonitorReading, MonitorsSetRequest } from '@fleetlink/contract';

/**
 * The device's monitors as the console last sent them, and their readings. Monitors are read one
 * after another (one folder walk at a time keeps the disk and the agent calm), one round at a time.
 */
export class MonitorWatch {
  private monitors: MonitorDefinition[] = [];
  /** The revision of the list held; none until the console sends one after a connect. */
  private revision: number | undefined;
  private last: MonitorReading[] | undefined;
  private running?: Promise<MonitorReading[]>;

  /** The readings to report; undefined until the console has sent the list (nothing to say yet). */
  get readings(): MonitorReading[] | undefined {
    return this.last;
  }

  /**
   * A new connection: the console sends the list again if the device has monitors (and that one
   * counts whatever its number); until then there are none, so monitors removed while the agent was
   * away are not read on.
   */
  connected(): void {
    this.revision = undefined;
    this.monitors = [];
    this.last = undefined;
  }

  /** Takes the console's list (unless a newer one came first) and reads every monitor on it. */
  async apply(list: MonitorsSetRequest): Promise<MonitorReading[]> {
    if (this.revision === undefined || list.revision >= this.revision) {
      this.revision = list.revision;
      this.monitors = list.monitors;
    }
    // A round under way read the old list: it ends first, then the new list is read in full.
    await this.running;
    return (await this.refresh()).readings;
  }

  /** Reads every monitor (joining a round under way); `changed` when a reading differs from the last ones. */
  async refresh(): Promise<{ readings: MonitorReading[]; changed: boolean }> {
    const before = JSON.stringify(this.last ?? null);
    this.running ??= this.readAll().finally(() => {
      this.running = undefined;
    });
    const readings = await this.running;
    this.last = readings;
    return { readings, changed: JSON.stringify(readings) !== before };
  }

  private async readAll(): Promise<MonitorReading[]> {
    const readings: MonitorReading[] = [];
    if (!this.monitors.length) return readings;
    // With the first monitor: the file rules it reads paths by need zod, which an idle agent never loads (issue 73).
    const { readMonitor } = await import('./read-monitor.js');
    for (const def of this.monitors) readings.push(await readMonitor(def));
    return readings;
  }
}
