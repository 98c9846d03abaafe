import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import i18next from 'i18next';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { theme } from '../app/theme';

export interface TRenderOptions {
  path?: string;
  /** The route pattern rendering `ui` (e.g. `/customer-list/:id`); by default `path` itself. */
  pattern?: string;
  /** Extra routes beside the one rendering `ui`, e.g. navigation targets. */
  routes?: RouteObject[];
  language?: 'ja' | 'en';
  queryClient?: QueryClient;
}

/** Renders a page or component with the console's providers and a memory router at `path`. */
export async function renderWithProviders(ui: ReactElement, options: TRenderOptions = {}) {
  await i18next.changeLanguage(options.language ?? 'en');
  const queryClient = options.queryClient ?? new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const path = options.path ?? '/';
  const pathname = path.split('?')[0] ?? '/';
  const router = createMemoryRouter(
    [
      { path: options.pattern ?? pathname, element: ui },
      ...(options.routes ?? []),
      { path: '*', element: <div data-testid="elsewhere" /> },
    ],
    { initialEntries: [path] },
  );
  const view = render(
    <MantineProvider theme={theme}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { ...view, router, queryClient };
}

/** A fetch stand-in answering by "METHOD path" with a status and a JSON body. */
export function mockFetch(
  handler: (method: string, url: URL, init: RequestInit) => { status?: number; body?: unknown } | undefined,
) {
  const calls: { method: string; url: URL; init: RequestInit }[] = [];
  const fetchMock = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost');
    const method = (init.method ?? 'GET').toUpperCase();
    calls.push({ method, url, init });
    const answer = handler(method, url, init) ?? {
      status: 404,
      body: { error: { code: 'not_found', message: 'Page not found.' } },
    };
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status: answer.status ?? 200,
      headers: { 'Content-Type': 'application/json' },
    });
  };
  globalThis.fetch = fetchMock as typeof fetch;
  return calls;
}

/** A query client that already holds the signed-in profile, as the shell's loader leaves it. */
export function signedInClient(me: unknown): QueryClient {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(['profile'], me);
  return client;
}
