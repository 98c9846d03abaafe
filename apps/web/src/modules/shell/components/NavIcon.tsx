import {
  IconBuildingCommunity,
  IconLayoutDashboard,
  IconMail,
  IconRobot,
  IconSettings,
  IconShieldLock,
  IconSpeakerphone,
  IconTemplate,
  IconTool,
  IconUsers,
} from '@tabler/icons-react';
import type { TNavIcon } from '../navigation';

const ICONS = {
  dashboard: IconLayoutDashboard,
  management: IconBuildingCommunity,
  customer: IconUsers,
  campaign: IconSpeakerphone,
  templates: IconTemplate,
  setup: IconTool,
  email_marketing: IconMail,
  automations: IconRobot,
  authorization: IconShieldLock,
  settings: IconSettings,
} satisfies Record<TNavIcon, unknown>;

export function NavIcon({ icon, size = 20 }: { icon: TNavIcon; size?: number }) {
  const Icon = ICONS[icon];
  return <Icon size={size} stroke={1.6} aria-hidden />;
}
