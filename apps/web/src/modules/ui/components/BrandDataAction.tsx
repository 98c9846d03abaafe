import { Group, Text } from '@mantine/core';
import { Children, cloneElement, isValidElement, useId, type ReactElement, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TEntitlementMap } from '@yado/contracts';
import { useProfile } from '../../shell/hooks/useProfile';

/**
 * Whether the user acts at the platform (the granduser's own level). The platform holds no brand's
 * data: segments, campaigns, scenarios and presets are created at a brand or below, and the server
 * refuses them at the platform (403 brand_host_required). The granduser switches role to a brand.
 */
export function useAtPlatform(): boolean {
  return useProfile().meta.level === 'grand_user';
}

/**
 * The profile's entitlements, without the creates of brand data at the platform: a copy is a create
 * (the server refuses it there too), so pages offering Duplicate or Copy read their actions from it.
 */
export function useBrandDataEntitlements(): TEntitlementMap {
  const can = useProfile().entitlements;
  const atPlatform = useAtPlatform();
  return atPlatform
    ? { ...can, 'campaign.create': false, 'segmentation.create': false, 'scenarios.create': false }
    : can;
}

type TActionProps = { disabled?: boolean; to?: unknown; onClick?: unknown; 'aria-describedby'?: string };

/**
 * Create actions for a brand's data (buttons, one or several). Elsewhere they are shown as given;
 * at the platform they are disabled, with the hint saying to switch to a brand, so the user meets
 * no refusal after pressing them. A link button becomes a plain button that goes nowhere.
 *
 * `repeated` marks the same actions shown a second time on the page (an empty list's state, below
 * the header's): at the platform it shows nothing, so the hint is said once, beside the header's
 * actions, where it stays whether the list is empty or not.
 */
export function BrandDataAction({ children, repeated = false }: { children: ReactNode; repeated?: boolean }) {
  const { t } = useTranslation();
  const atPlatform = useAtPlatform();
  const hintId = useId();
  if (atPlatform && repeated) return null;
  if (!atPlatform)
    return Children.count(children) > 1 ? (
      <Group gap="sm" wrap="nowrap">
        {children}
      </Group>
    ) : (
      <>{children}</>
    );
  const disabled = Children.map(children, (child) => {
    if (!isValidElement<TActionProps>(child)) return child;
    const linkProps = child.props.to === undefined ? {} : { component: 'button', to: undefined };
    return cloneElement(child as ReactElement<TActionProps>, {
      ...linkProps,
      disabled: true,
      onClick: undefined,
      'aria-describedby': hintId,
    });
  });
  return (
    <Group gap="sm" wrap="nowrap" data-testid="brand-data-action">
      <Text id={hintId} size="xs" c="dimmed" maw={320} data-testid="brand-host-required">
        {t('errors.brand_host_required')}
      </Text>
      {disabled}
    </Group>
  );
}
