/**
 * The reference of bench/api-throughput.ts: a bare Fastify + pg server that answers one device row
 * read by primary key (one prepared statement, JSON out), on the same database: the floor for an
 * API answer in Node on this machine. Run as a process of its own; says `listening <port>` when up.
 */
import Fastify from 'fastify';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const app = Fastify({ logger: false });
app.get<{ Params: { id: string } }>('/device/:id', async (req, reply) => {
  const { rows } = await pool.query({ name: 'device', text: 'select row_to_json(d) as device from devices d where d.id = $1', values: [req.params.id] });
  if (!rows.length) return reply.code(404).send({ message: 'no such device' });
  return rows[0].device;
});
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
const address = app.server.address();
console.log(`listening ${typeof address === 'object' && address ? address.port : ''}`);
process.on('SIGTERM', () => void app.close().then(() => pool.end()).then(() => process.exit(0)));
