// The widget without its bundled workers and inline styles ('external'), so the console's
// Content-Security-Policy needs no blob: workers: the proof-of-work worker is a file of the build.
import 'altcha/external';
import 'altcha/altcha.css';
import Pbkdf2Worker from 'altcha/workers/pbkdf2?worker';

// The console's challenges use PBKDF2/SHA-256 only (apps/server contact/captcha.ts).
globalThis.$altcha.algorithms.set('PBKDF2/SHA-256', () => new Pbkdf2Worker());
