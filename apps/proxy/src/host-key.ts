import ssh2 from 'ssh2';

/** A new ed25519 host key in OpenSSH's format: the private one for the proxy, the public one to register. */
export function generateHostKey(): { privateKey: string; publicKey: string } {
  const pair = ssh2.utils.generateKeyPairSync('ed25519');
  return { privateKey: pair.private, publicKey: pair.public.trim() };
}

/** The public half of a private host key, as `ssh-ed25519 AAAA…` (what a PROXY server's hostKey holds). */
export function publicHostKey(privateKey: string): string {
  const key = ssh2.utils.parseKey(privateKey);
  if (key instanceof Error) throw new Error(`The proxy's host key cannot be read: ${key.message}`);
  return `${key.type} ${key.getPublicSSH().toString('base64')}`;
}
