import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { createQueryClient } from './api/query-client';
import { Startup } from './startup/Startup';
import { MantineRoot } from './theme/MantineRoot';

export function App() {
  const [queryClient] = useState(createQueryClient);
  return (
    <MantineRoot>
      <QueryClientProvider client={queryClient}>
        <Startup />
      </QueryClientProvider>
    </MantineRoot>
  );
}
