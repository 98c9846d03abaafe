import { Badge, createTheme } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'orange',
  fontFamily:
    '"Hiragino Sans", "Hiragino Kaku Gothic ProN", "Noto Sans JP", "Yu Gothic UI", Meiryo, system-ui, -apple-system, "Segoe UI", sans-serif',
  defaultRadius: 'md',
  // Modals, menus, dropdowns and collapses open without their transitions for a user whose system
  // asks for less motion (prefers-reduced-motion); our own animations do the same in their CSS.
  respectReducedMotion: true,
  components: {
    // A status badge is read whole ("RUNNING", 配信停止): it keeps its width instead of being cut to "RUNNI…".
    Badge: Badge.extend({
      styles: {
        root: { flexShrink: 0, maxWidth: 'none', overflow: 'visible' },
        label: { overflow: 'visible', textOverflow: 'clip' },
      },
    }),
    // A table too wide for its page scrolls sideways inside its container, and the container
    // positions what is absolutely positioned in the table (a column header for screen readers
    // only): positioned by the page instead, it stayed outside the scrolling and, once the table
    // was wider than its container, made the whole page scroll sideways. By name, not by
    // Table.ScrollContainer.extend: importing Table here would put it in every page's first bundle.
    TableScrollContainer: { styles: { scrollContainer: { position: 'relative' } } },
    // A column header breaks between words, never inside one: a Japanese header has no spaces, so
    // it stays whole (メール配信ステータス, not メール配信ステータ／ス) and its column widens to fit.
    Table: { styles: { th: { wordBreak: 'keep-all' } } },
  },
});
