/**
 * File transfer benchmark (issue 27): a file of BENCH_MB MiB (default 2048) up to a device and down
 * again through the console and a real agent on loopback, as the Storage page moves it:
 *   - up: POST /api/upload/{id} (multipart, streamed) until the agent has the file in its folder
 *     (with the file store, the agent fetches while the blob is still written: the hops overlap);
 *   - down: GET /api/request-download/{id} (the agent sends it to the blob store), then the link;
 * beside a plain `cp` of the same file and one bare HTTP hop each way (node:http ⇄ curl) in the
 * same run: a transfer is two hops by design (into the blob store, then out of it), so the bare hop
 * says what each costs on this machine. Also the peak RSS above idle of the console
 * (in this process; the browser's side is curl, in its own) and of the agent, sampled every 50 ms.
 * Contents are checked by SHA-256 both ways. Target: ≥ 200 MB/s each way, peak RSS < 150 MB above idle.
 *
 *   npx tsx bench/file-transfer.ts
 *   TMPDIR=/dev/shm npx tsx bench/file-transfer.ts   # every file in RAM: the code, not the disk
 *   BENCH_MB=512 npx tsx bench/file-transfer.ts
 */
import { createHash, randomBytes } from 'node:crypto';
import { execFile, execFileSync } from 'node:child_process';
import http from 'node:http';
import { createReadStream, createWriteStream, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  ADMIN_EMAIL,
  embeddedSetup,
  memberDevice,
  runAgentOnline,
  tempDir,
  tearDown,
  type AgentProcess,
} from '../apps/server/src/modules/broker/broker.test-support.js';

const MiB = 1024 * 1024;
const SIZE = Number(process.env.BENCH_MB ?? 2048) * MiB;

/** Each timed part starts with nothing left to flush from the one before: else the disk, not the code, is measured. */
const settle = () => execFileSync('sync');

const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;

/** The highest RSS of each process while `work` runs. */
async function peaks<T>(pids: number[], work: () => Promise<T>): Promise<{ result: T; peak: number[] }> {
  const peak = pids.map(rssOf);
  const timer = setInterval(() => pids.forEach((pid, i) => (peak[i] = Math.max(peak[i]!, rssOf(pid)))), 50);
  try {
    return { result: await work(), peak };
  } finally {
    clearInterval(timer);
  }
}

async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file, { highWaterMark: 4 * MiB })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * The browser's side is curl, a process of its own as a browser is: the console's process then
 * holds only the console, and its event loop is not shared with the client's copying.
 */
function curl(args: string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile('curl', ['--silent', '--show-error', '--fail-with-body', ...args], { maxBuffer: MiB }, (err, stdout) => (err ? reject(new Error(`${err.message} ${stdout}`)) : resolve(stdout))),
  );
}

/**
 * One bare hop for reference, in the same run: a plain node:http server streaming the file to curl,
 * and curl streaming it to the server (1 MiB buffers, as the console's blob store uses).
 */
async function bareHops(file: string, out: string): Promise<{ toCurl: number; fromCurl: number }> {
  const server = http.createServer((req, res) => {
    if (req.method === 'GET') {
      res.setHeader('content-length', statSync(file).size);
      createReadStream(file, { highWaterMark: MiB }).pipe(res);
    } else {
      void pipeline(req, createWriteStream(out, { highWaterMark: MiB })).then(() => res.end());
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
  try {
    settle();
    let t = performance.now();
    await curl(['--output', out, url]);
    const toCurl = (performance.now() - t) / 1000;
    rmSync(out);
    settle();
    t = performance.now();
    await curl(['--upload-file', file, url]);
    const fromCurl = (performance.now() - t) / 1000;
    rmSync(out);
    return { toCurl, fromCurl };
  } finally {
    server.close();
  }
}

const work = tempDir('fleetlink-bench-transfer-');
const agents: AgentProcess[] = [];
const dirs: string[] = [work];
const s = await embeddedSetup({ LOG_LEVEL: 'silent' });
try {
  const source = path.join(work, 'source.bin');
  const block = randomBytes(MiB);
  await pipeline(
    Readable.from((function* () {
      for (let n = 0; n < SIZE / MiB; n++) yield block;
    })()),
    createWriteStream(source),
  );
  const expected = await sha256File(source);

  const copy = path.join(work, 'copy.bin');
  settle();
  let started = performance.now();
  execFileSync('cp', [source, copy]);
  const cpSeconds = (performance.now() - started) / 1000;
  rmSync(copy);

  const bare = await bareHops(source, path.join(work, 'bare.bin'));

  const token = await s.tc.token(ADMIN_EMAIL);
  const device = await memberDevice(s.tc.database.db, 'bench transfers');
  const agent = await runAgentOnline(s.tc, device, { agents, dirs });
  const agentPid = await agent.workerPid();
  const into = tempDir('fleetlink-bench-device-');
  dirs.push(into);
  await new Promise((r) => setTimeout(r, 1000));
  const idle = [process.memoryUsage().rss, rssOf(agentPid)];

  settle();
  started = performance.now();
  // The agent's part begins when its temporary file appears in the folder.
  let agentBegan = 0;
  const watch = setInterval(() => {
    if (!agentBegan && readdirSync(into).some((n) => n.endsWith('.part'))) agentBegan = performance.now();
  }, 50);
  const auth = ['--header', `Authorization: Bearer ${token}`];
  const up = await peaks([process.pid, agentPid], () => curl([...auth, '--form', `path=${into}`, '--form', `file=@${source}`, `${s.tc.url}/api/upload/${device.id}`]));
  clearInterval(watch);
  const upSeconds = (performance.now() - started) / 1000;
  const upPhases = [(agentBegan - started) / 1000, upSeconds - (agentBegan - started) / 1000];
  const onDevice = path.join(into, 'source.bin');
  if ((await sha256File(onDevice)) !== expected) throw new Error('the uploaded file differs');

  const downloaded = path.join(work, 'downloaded.bin');
  let linkAt = 0;
  settle();
  started = performance.now();
  const down = await peaks([process.pid, agentPid], async () => {
    const link = await curl([...auth, `${s.tc.url}/api/request-download/${device.id}?${new URLSearchParams({ path: onDevice })}`]);
    linkAt = performance.now();
    await curl(['--output', downloaded, `${s.tc.url}${link}`]);
  });
  const downSeconds = (performance.now() - started) / 1000;
  const downPhases = [(linkAt - started) / 1000, downSeconds - (linkAt - started) / 1000];
  if ((await sha256File(downloaded)) !== expected) throw new Error('the downloaded file differs');

  const mbs = (seconds: number) => SIZE / 1e6 / seconds;
  const mb = (bytes: number) => `${(bytes / MiB).toFixed(0)} MB`;
  const line = (name: string, seconds: number) =>
    `${name.padEnd(34)} ${seconds.toFixed(2).padStart(6)} s  ${mbs(seconds).toFixed(0).padStart(5)} MB/s  (${(mbs(seconds) / mbs(cpSeconds)).toFixed(2)}× cp)`;
  console.log(`${(SIZE / MiB).toLocaleString('en-US')} MiB file on loopback, SHA-256 checked both ways`);
  console.log(line('cp (reference)', cpSeconds));
  console.log(line('bare hop: node:http → curl', bare.toCurl));
  console.log(line('bare hop: curl → node:http', bare.fromCurl));
  console.log(line('up: browser → console → agent', upSeconds));
  console.log(line('down: agent → console → browser', downSeconds));
  console.log(`  up:   the agent began fetching ${upPhases[0]!.toFixed(2)} s in (it follows the blob as it is written), done ${upPhases[1]!.toFixed(2)} s later`);
  console.log(`  down: ${downPhases[0]!.toFixed(2)} s agent → blob store, ${downPhases[1]!.toFixed(2)} s blob store → browser`);
  console.log(`console RSS: idle ${mb(idle[0]!)}, peak up +${mb(up.peak[0]! - idle[0]!)}, peak down +${mb(down.peak[0]! - idle[0]!)}`);
  console.log(`agent RSS:   idle ${mb(idle[1]!)}, peak up +${mb(up.peak[1]! - idle[1]!)}, peak down +${mb(down.peak[1]! - idle[1]!)}`);
} finally {
  await tearDown(s, { agents, dirs });
}
