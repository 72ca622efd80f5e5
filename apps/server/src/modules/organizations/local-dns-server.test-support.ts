import dns2 from 'dns2';

const { Packet } = dns2;

/** A real DNS server on 127.0.0.1 answering CNAME records from a map the test can change. */
export async function startLocalDnsServer(cnames: Map<string, string> = new Map()) {
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const target = question && cnames.get(question.name.toLowerCase());
      if (target) {
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
    /** For DNS_SERVERS: `127.0.0.1:port`. */
    address: `127.0.0.1:${addresses.udp!.port}`,
    close: () => server.close(),
  };
}
