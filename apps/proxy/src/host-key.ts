import ssh2 from 'ssh2';

/**
 * A new ed25519 host key in OpenSSH's format: the private one for the proxy, the public one to register.
 * ssh2's generator writes about 1 key in 250 that its own parser refuses ('Malformed OpenSSH private
 * key': a public key starting with a zero byte comes out 31 bytes long), so a key is kept only once it
 * reads back with the same public half.
 */
export function generateHostKey(): { privateKey: string; publicKey: string } {
  for (let attempt = 0; attempt < 50; attempt++) {
    const pair = ssh2.utils.generateKeyPairSync('ed25519');
    const parsed = ssh2.utils.parseKey(pair.private);
    const publicKey = pair.public.trim();
    if (!(parsed instanceof Error) && `${parsed.type} ${parsed.getPublicSSH().toString('base64')}` === publicKey.split(' ').slice(0, 2).join(' ')) {
      return { privateKey: pair.private, publicKey };
    }
  }
  throw new Error('Could not make an SSH host key that reads back.');
}

/** The public half of a private host key, as `ssh-ed25519 AAAA…` (what a PROXY server's hostKey holds). */
export function publicHostKey(privateKey: string): string {
  const key = ssh2.utils.parseKey(privateKey);
  if (key instanceof Error) throw new Error(`The proxy's host key cannot be read: ${key.message}`);
  return `${key.type} ${key.getPublicSSH().toString('base64')}`;
}
