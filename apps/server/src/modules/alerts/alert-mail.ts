import type { AlertWebhookBody } from '@fleetlink/contract';

/** An alert as a mail: the summary as its subject, and what a person needs to act on it. */
export function alertMail(body: AlertWebhookBody, consoleUrl: string): { subject: string; text: string } {
  const lines = [
    body.summary,
    '',
    `Rule: ${body.rule.name}`,
    ...(body.organization ? [`Organization: ${body.organization.name}`] : []),
    `Time: ${body.time}`,
  ];
  if (body.devices.length) {
    lines.push('', body.count > body.devices.length ? `Devices (the first ${body.devices.length} of ${body.count.toLocaleString('en')}):` : 'Devices:');
    for (const d of body.devices) lines.push(`- ${d.name}: ${consoleUrl}/devices/${d.id}`);
  }
  lines.push('', body.organization ? `The rule: ${consoleUrl}/organizations/${body.organization.id}/alerts` : `The rule: ${consoleUrl}/operator/alerts`);
  return { subject: `[Fleetlink] ${body.summary}`, text: lines.join('\n') };
}
