import { alertConditionLabels, type AlertCondition, type AlertRule } from '@fleetlink/contract';

/** How a rule's condition reads in its list. */
export function conditionText(c: AlertCondition): string {
  switch (c.kind) {
    case 'DEVICE_OFFLINE':
      return `A device is offline for more than ${c.minutes} minute${c.minutes === 1 ? '' : 's'}, and back online`;
    case 'DRIVE_FULL':
      return `A drive is at least ${c.percent} % full`;
    case 'MONITOR_CHANGED':
      return c.monitor ? `Monitor '${c.monitor}' changed` : "Any monitor's value changed";
    default:
      return alertConditionLabels[c.kind];
  }
}

/** Which devices: all, a search, a tag. */
export function devicesText(rule: AlertRule): string {
  const parts = [rule.devices.search ? `matching '${rule.devices.search}'` : '', rule.devices.tag ? `tagged '${rule.devices.tag}'` : ''].filter(Boolean);
  return parts.length ? `Devices ${parts.join(' and ')}` : 'All devices';
}

/** Where it tells: the bell, mail addresses, a webhook (and whether it was switched off). */
export function channelsText(rule: AlertRule): string {
  const parts = [
    rule.notify.console ? 'the console' : '',
    rule.notify.emails.length ? `mail to ${rule.notify.emails.join(', ')}` : '',
    rule.webhook ? `webhook ${rule.webhook.url}${rule.webhook.disabledAt ? ' (switched off after 24 hours of failures)' : ''}` : '',
  ].filter(Boolean);
  return parts.length ? parts.join('; ') : 'Nowhere';
}
