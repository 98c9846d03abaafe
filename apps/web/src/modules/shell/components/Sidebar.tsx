import { ActionIcon, Box, Collapse, UnstyledButton } from '@mantine/core';
import type { TMe } from '@yado/contracts/auth';
import { IconChevronDown, IconLayoutSidebarLeftCollapse, IconLayoutSidebarLeftExpand } from '@tabler/icons-react';
import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, useLocation, useNavigate } from 'react-router';
import { buildNavigation, hiddenAtLevel, isEntryActive, type TNavGroup, type TNavLink } from '../navigation';
import { NavIcon } from './NavIcon';
import classes from './Sidebar.module.css';

export const SIDEBAR_WIDTH = { expanded: 230, collapsed: 88 } as const;

export interface TSidebarProps {
  me: TMe;
  collapsed: boolean;
  onCollapsedChange: (collapsed: boolean) => void;
  footer: ReactNode;
}

export function Sidebar({ me, collapsed, onCollapsedChange, footer }: TSidebarProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const level = me.meta.level;
  const entries = useMemo(
    () => buildNavigation(me.entitlements, me.features, hiddenAtLevel(level)),
    [me.entitlements, me.features, level],
  );
  // Groups start open when the page is one of theirs; afterwards the user decides.
  const [openGroups, setOpenGroups] = useState<Set<string>>(
    () => new Set(entries.filter((e) => e.kind === 'group' && isEntryActive(e, pathname)).map((e) => e.id)),
  );

  const toggleGroup = (group: TNavGroup) => {
    if (collapsed) {
      onCollapsedChange(false);
      setOpenGroups((open) => new Set(open).add(group.id));
      return;
    }
    setOpenGroups((open) => {
      const next = new Set(open);
      if (next.has(group.id)) next.delete(group.id);
      else next.add(group.id);
      return next;
    });
  };

  const renderLink = (item: TNavLink, nested: boolean) => {
    const active = isEntryActive(item, pathname);
    const label = t(`nav.${item.id}`);
    return (
      <NavLink
        key={item.id}
        to={item.path}
        end={item.path === '/'}
        className={classes.item}
        data-active={active || undefined}
        data-nested={nested || undefined}
        aria-current={active ? 'page' : undefined}
        aria-label={collapsed ? label : undefined}
        title={collapsed ? label : undefined}
        onClick={(event) => {
          if (!collapsed) return;
          event.preventDefault();
          onCollapsedChange(false);
          navigate(item.path);
        }}
      >
        {!nested && (
          <span className={classes.icon}>
            <NavIcon icon={item.icon} />
          </span>
        )}
        <span className={classes.label}>{label}</span>
      </NavLink>
    );
  };

  return (
    <Box
      component="nav"
      className={classes.sidebar}
      style={{ width: collapsed ? SIDEBAR_WIDTH.collapsed : SIDEBAR_WIDTH.expanded }}
      data-collapsed={collapsed || undefined}
      data-testid="sidebar"
      aria-label={t('nav.label')}
    >
      <div className={classes.header}>
        <span className={classes.logo} aria-hidden />
        <span className={classes.brand}>{t('common.app_name')}</span>
        <ActionIcon
          variant="subtle"
          color="gray"
          className={classes.collapse}
          onClick={() => onCollapsedChange(!collapsed)}
          aria-label={t(collapsed ? 'nav.expand' : 'nav.collapse')}
          aria-expanded={!collapsed}
          data-testid="sidebar-toggle"
        >
          {collapsed ? <IconLayoutSidebarLeftExpand size={20} /> : <IconLayoutSidebarLeftCollapse size={20} />}
        </ActionIcon>
      </div>
      <div className={classes.entries}>
        {entries.map((entry) => {
          if (entry.kind === 'link') return renderLink(entry, false);
          const active = isEntryActive(entry, pathname);
          const open = openGroups.has(entry.id) && !collapsed;
          const label = t(`nav.${entry.id}`);
          const header = (
            <UnstyledButton
              className={classes.item}
              data-active={active || undefined}
              data-group
              aria-expanded={open}
              aria-label={collapsed ? label : undefined}
              title={collapsed ? label : undefined}
              onClick={() => toggleGroup(entry)}
            >
              <span className={classes.icon}>
                <NavIcon icon={entry.icon} />
              </span>
              <span className={classes.label}>{label}</span>
              <IconChevronDown size={16} className={classes.chevron} data-open={open || undefined} aria-hidden />
            </UnstyledButton>
          );
          return (
            <div key={entry.id} data-testid={`nav-group-${entry.id}`}>
              {header}
              <Collapse expanded={open}>
                <div className={classes.children}>{entry.children.map((child) => renderLink(child, true))}</div>
              </Collapse>
            </div>
          );
        })}
      </div>
      <div className={classes.footer}>{footer}</div>
    </Box>
  );
}
