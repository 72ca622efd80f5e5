import '@xterm/xterm/css/xterm.css';
import { Alert, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { IconPlugConnectedX, IconRefresh } from '@tabler/icons-react';
import { FitAddon } from '@xterm/addon-fit';
import { Terminal } from '@xterm/xterm';
import { useEffect, useRef, useState } from 'react';
import { useAuth } from '../../../app/auth/AuthContext';
import { useCurrentDevice } from '../detail/current-device';
import { TerminalConnection, type TerminalState } from './terminal-connection';

/**
 * /devices/{id}/terminal (realm ADMIN, issue 63): a shell on the device, in xterm.js. The session
 * lives as long as this page: leaving it or closing the tab ends it; when it ends for another
 * reason the page says which, and Reconnect starts a new one. Needs the device online.
 */
export function DeviceTerminalPage() {
  const device = useCurrentDevice();
  const [attempt, setAttempt] = useState(0);
  if (!device.online) {
    return (
      <Alert color="gray" icon={<IconPlugConnectedX />} title="The device is offline" data-testid="terminal-offline">
        The device must be online to open a terminal: the shell runs on the device, through its agent. This page works again as soon as the agent is connected.
      </Alert>
    );
  }
  return <TerminalSession key={attempt} deviceId={device.id} onReconnect={() => setAttempt((n) => n + 1)} />;
}

function TerminalSession({ deviceId, onReconnect }: { deviceId: string; onReconnect: () => void }) {
  const box = useRef<HTMLDivElement>(null);
  const auth = useAuth();
  // The token the session opens with; a renewed one later does not end a running session.
  const [token] = useState(() => auth.user?.access_token ?? '');
  const [state, setState] = useState<TerminalState>({ phase: 'connecting' });

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const term = new Terminal({
      cursorBlink: true,
      fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "DejaVu Sans Mono", monospace',
      fontSize: 14,
      scrollback: 5000,
      // Screen readers hear what the shell prints (xterm.js's own live region).
      screenReaderMode: true,
    });
    const fit = new FitAddon();
    term.loadAddon(fit);
    term.open(element);
    fit.fit();
    const connection = new TerminalConnection({
      origin: window.location.origin,
      deviceId,
      token,
      size: { cols: term.cols, rows: term.rows },
      screen: { write: (data, drawn) => term.write(data, drawn) },
      onState: (s) => {
        setState(s);
        if (s.phase === 'ready') term.focus();
        if (s.phase === 'ended') term.options.disableStdin = true;
      },
    });
    const subscriptions = [
      term.onData((data) => connection.input(data)),
      term.onBinary((data) => connection.input(data, true)),
      term.onResize((size) => connection.resize(size)),
    ];
    // The window (or the page's layout) changes size: the terminal follows, and the shell is told.
    const observer = new ResizeObserver(() => fit.fit());
    observer.observe(element);
    return () => {
      observer.disconnect();
      subscriptions.forEach((s) => s.dispose());
      connection.close();
      term.dispose();
    };
  }, [deviceId, token]);

  return (
    <Stack gap="xs">
      <Group justify="space-between" wrap="nowrap" mih={36}>
        <Text size="sm" role="status" data-testid="terminal-status" c={state.phase === 'ended' ? 'orange.9' : undefined}>
          {state.phase === 'connecting' ? 'Opening a shell on the device…' : state.phase === 'ready' ? 'Connected. Closing this page ends the session.' : state.message}
        </Text>
        {state.phase === 'ended' ? (
          <Button size="xs" leftSection={<IconRefresh size={16} />} onClick={onReconnect} data-testid="terminal-reconnect">
            Reconnect
          </Button>
        ) : null}
      </Group>
      <Paper withBorder p={4} bg="#000">
        <div ref={box} aria-label="Terminal" data-testid="terminal" style={{ height: 'max(320px, calc(100vh - 330px))' }} />
      </Paper>
    </Stack>
  );
}
