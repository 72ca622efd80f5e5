import { formatBytes, type Monitor } from '@fleetlink/contract';
import { formatDayMonthTime } from '../../../app/format/date-format';

/**
 * A monitor's value as people read it (SPEC §2): UPDATE as 'dd MMM yyyy HH:mm', SIZE in bytes of
 * base 1024, VERSION as the text it is; '-' when there is none (or what the device sent is not what
 * its type promises).
 */
export function monitorValueText(m: Pick<Monitor, 'type' | 'value'>): string {
  if (m.value === null) return '-';
  switch (m.type) {
    case 'UPDATE': {
      const time = new Date(m.value);
      return Number.isNaN(time.getTime()) ? '-' : formatDayMonthTime(time);
    }
    case 'SIZE':
      return formatBytes(m.value.trim() ? Number(m.value) : NaN);
    case 'VERSION':
      return m.value;
  }
}
