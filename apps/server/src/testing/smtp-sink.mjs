// A real SMTP server in its own process, for tests of the console's mail: it prints one JSON line
// when it listens ({ port }) and one per message it takes ({ from, to, raw }). With --refuse it
// answers every recipient 550, as a mail server that will not relay does.
import { SMTPServer } from 'smtp-server';

const refuse = process.argv.includes('--refuse');
const print = (o) => process.stdout.write(`${JSON.stringify(o)}\n`);

const server = new SMTPServer({
  authOptional: true,
  // No DNS here: a reverse lookup of 127.0.0.1 would only wait.
  disableReverseLookup: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onRcptTo(address, _session, callback) {
    if (!refuse) return callback();
    const err = new Error(`5.7.1 <${address.address}>: Relay access denied`);
    err.responseCode = 550;
    return callback(err);
  },
  onData(stream, session, callback) {
    const chunks = [];
    stream.on('data', (c) => chunks.push(c));
    stream.on('end', () => {
      print({ from: session.envelope.mailFrom && session.envelope.mailFrom.address, to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
      callback();
    });
  },
});
server.listen(0, '127.0.0.1', () => print({ port: server.server.address().port }));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
