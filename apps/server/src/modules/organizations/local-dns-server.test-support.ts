import dns2 from 'dns2';

const { Packet } = dns2;

/** A real DNS server on 127.0.0.1 answering CNAME and TXT records from maps the test can change. */
export async function startLocalDnsServer(cnames: Map<string, string> = new Map(), txts: Map<string, string[]> = new Map()) {
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const target = question && cnames.get(question.name.toLowerCase());
      const texts = question && question.type === Packet.TYPE.TXT ? txts.get(question.name.toLowerCase()) : undefined;
      if (texts) {
        for (const data of texts) response.answers.push({ name: question!.name, type: Packet.TYPE.TXT, class: Packet.CLASS.IN, ttl: 1, data } as unknown as (typeof response.answers)[number]);
      } else if (target) {
        response.answers.push({ name: question.name, type: Packet.TYPE.CNAME, class: Packet.CLASS.IN, ttl: 1, domain: target } as unknown as (typeof response.answers)[number]);
      } else {
        response.header.rcode = 3; // NXDOMAIN
      }
      send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  return {
    cnames,
    /** TXT records by name, each record one string. */
    txts,
    /** For DNS_SERVERS: `127.0.0.1:port`. */
    address: `127.0.0.1:${addresses.udp!.port}`,
    close: () => server.close(),
  };
}
