import { Badge, createTheme } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'orange',
  fontFamily:
    '"Hiragino Sans", "Hiragino Kaku Gothic ProN", "Noto Sans JP", "Yu Gothic UI", Meiryo, system-ui, -apple-system, "Segoe UI", sans-serif',
  defaultRadius: 'md',
  components: {
    // A status badge is read whole ("RUNNING", 配信停止): it keeps its width instead of being cut to "RUNNI…".
    Badge: Badge.extend({
      styles: {
        root: { flexShrink: 0, maxWidth: 'none', overflow: 'visible' },
        label: { overflow: 'visible', textOverflow: 'clip' },
      },
    }),
  },
});
