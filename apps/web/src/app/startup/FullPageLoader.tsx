import { Center, Loader, Stack, Text } from '@mantine/core';

/** Shown while the console starts or hands over to the identity provider. */
export function FullPageLoader({ label }: { label: string }) {
  return (
    <Center mih="100vh">
      <Stack align="center" gap="sm">
        <Loader />
        <Text c="dimmed" size="sm">
          {label}
        </Text>
      </Stack>
    </Center>
  );
}
