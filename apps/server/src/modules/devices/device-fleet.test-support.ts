import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { organizationMembers, organizations } from '../../db/schema/index.js';

/**
 * What an agent reports, at its real size: every SPEC §3 property key, two drives, a local and a
 * public address. Half the devices have an agent; a device row is then about 1 KB, as in a fleet.
 */
const agentReport = sql`jsonb_build_object(
    'hostname', 'host-' || i, 'os.name', case when i % 3 = 0 then 'Windows 11' else 'Debian GNU/Linux' end,
    'os.version', '6.1.0-28-amd64', 'os.arch', 'x64', 'user.name', 'fleetlink', 'user.home', '/home/fleetlink',
    'user.dir', '/opt/fleetlink/agent', 'cpu.count', '4', 'cpu.sys.load', '0.0731', 'mem.total', '8236453888',
    'mem.free', '5123481600', 'swap.total', '2147479552', 'swap.free', '2147479552', 'java.mem.total', '52428800',
    'java.mem.free', '12582912', 'java.thread.alive', '11', 'java.name', 'Node.js', 'java.version', '20.20.2',
    'java.home', '/usr/local/bin/node', 'agent.bundle.version', '0.1.0', 'agent.launcher.version', '0.1.0',
    'update.bundle.version', '0.1.0')`;

/**
 * Writes `count` devices into an organization in one statement, as a fleet looks: device `i` is
 * named `device-i`, in one of five cities, tagged `rack-(i % 50)` and `kiosk` (every third) or
 * `sensor`, online when i % 4 = 0, reported by an agent when even. The search rows come from the
 * devices table's triggers, as for every other writer.
 */
export async function seedFleet(db: Db, organizationId: string, count: number): Promise<void> {
  await db.execute(sql`
    insert into devices (organization_id, name, description, tags, installation_key, online, properties, addresses, drives, last_response)
    select ${organizationId}::uuid,
      'device-' || i,
      'Device number ' || i || ' in ' || (array['Amsterdam','Berlin','Paris','Madrid','Rome'])[1 + i % 5],
      array['rack-' || (i % 50), case when i % 3 = 0 then 'kiosk' else 'sensor' end],
      md5(i::text),
      i % 4 = 0,
      case when i % 2 = 0 then ${agentReport} end,
      jsonb_build_array(jsonb_build_object('type', 'LOCAL', 'ip', '10.' || (i / 65536) % 256 || '.' || (i / 256) % 256 || '.' || i % 256))
        || case when i % 2 = 0 then jsonb_build_array(jsonb_build_object('type', 'PUBLIC', 'ip', '203.0.113.' || i % 256)) else '[]'::jsonb end,
      case when i % 2 = 0 then '[{"name":"/","root":"/","totalSpace":250375106560,"freeSpace":101234567168},{"name":"/boot/efi","root":"/boot/efi","totalSpace":535805952,"freeSpace":529080320}]'::jsonb else '[]'::jsonb end,
      now() - (i || ' seconds')::interval
    from generate_series(1, ${count}) i`);
}

/** A company organization with `member` as its ADMIN and a fleet of `count` devices (seedFleet). */
export async function seedOrganization(db: Db, name: string, count: number, member: string): Promise<string> {
  const [org] = await db.insert(organizations).values({ type: 'COMPANY', name }).returning({ id: organizations.id });
  await db.insert(organizationMembers).values({ organizationId: org!.id, email: member, role: 'ADMIN' });
  await seedFleet(db, org!.id, count);
  return org!.id;
}
