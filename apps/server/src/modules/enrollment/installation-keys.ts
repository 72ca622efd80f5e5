import { SecretBox } from '../../lib/secret-box.js';
import { sealedAs } from '../system/secrets-at-rest.js';

/**
 * Installation keys as the database keeps them: sealed with the console's secret key (issue 58), so a
 * copy of the database alone enrolls nothing, while the Install page can still show a manager the
 * key of a device that has not enrolled yet. An enrollment claims the key by its stored (sealed)
 * text, so two agents racing with one key still claim it once.
 */
export class InstallationKeys {
  constructor(private readonly box: SecretBox) {}

  seal(key: string): string {
    return this.box.seal(key, sealedAs.installationKey);
  }

  /** The key; one an older console stored in plain text (until the next start seals it) as it is. */
  open(stored: string): string {
    return SecretBox.isSealed(stored) ? this.box.open(stored, sealedAs.installationKey) : stored;
  }
}
