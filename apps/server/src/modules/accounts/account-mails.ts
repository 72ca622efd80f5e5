/** The mails the built-in provider sends a person about their account (issue 72): plain text, every value theirs or the console's. */

const dayOf = (d: Date) => d.toISOString().slice(0, 16).replace('T', ' ') + ' UTC';

export function invitationMail(o: { inviter: string; link: string; consoleUrl: string; expiresAt: Date }): { subject: string; text: string } {
  return {
    subject: 'You are invited to Fleetlink',
    text: [
      `${o.inviter} invited you to Fleetlink, the device console at ${o.consoleUrl}.`,
      '',
      'Choose your password here (the link opens once):',
      o.link,
      '',
      `The link works until ${dayOf(o.expiresAt)}. If you did not expect this invitation, ignore this mail: nothing happens without the link.`,
    ].join('\n'),
  };
}

export function resetMail(o: { link: string; consoleUrl: string; expiresAt: Date }): { subject: string; text: string } {
  return {
    subject: 'Choose a new Fleetlink password',
    text: [
      `Someone asked for a new password for your account at ${o.consoleUrl} ("Forgot password?").`,
      '',
      'Choose it here (the link opens once):',
      o.link,
      '',
      `The link works until ${dayOf(o.expiresAt)}. If you did not ask, ignore this mail: your password stays as it is.`,
    ].join('\n'),
  };
}
