/** The query keys of the message servers, apart: the live updates (on every page) need them, not the servers code. */
export const serverKeys = {
  all: ['servers'] as const,
  detail: (id: string) => ['server', id] as const,
  ofDevice: (deviceId: string) => ['device-servers', deviceId] as const,
};
