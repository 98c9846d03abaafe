import { act, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../../test/render';
import { SnackbarHost } from '../../ui/components/SnackbarHost';
import { useLandingToast } from './useLandingToast';

// A page that is still loading once the flag is dropped: the router's new location, a transition,
// is held, and the hook keeps reading the flag.
const never = new Promise<never>(() => undefined);
function StillLoading() {
  if (useLocation().search === '') throw never;
  return null;
}

function Landing() {
  useLandingToast();
  return (
    <>
      <StillLoading />
      <SnackbarHost />
    </>
  );
}

describe('useLandingToast', () => {
  it('greets and drops the flag once per landing, even when the language changes before the page has loaded', async () => {
    const { router } = await renderWithProviders(<Landing />, { path: '/?loginSuccess=true', language: 'en' });
    expect(await screen.findAllByText(/logged in successfully/)).toHaveLength(1);
    await waitFor(() => expect(router.state.location.search).toBe(''));
    const landed = router.state.location.key;

    await act(async () => void (await i18next.changeLanguage('ja')));

    // One greeting, and no second navigation (it would cancel one the user started meanwhile).
    expect(screen.queryAllByText(/ログインしました|logged in successfully/)).toHaveLength(1);
    expect(router.state.location.key).toBe(landed);
  });
});
