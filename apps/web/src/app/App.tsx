import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { RouterProvider } from 'react-router';
import { queryClient } from './queryClient';
import { createRouter } from './router';
import { theme } from './theme';

export function App() {
  const [router] = useState(createRouter);
  return (
    <MantineProvider theme={theme}>
      <Notifications position="top-right" limit={4} />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  );
}
