import '@mantine/core/styles.css';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { initI18n } from './i18n/i18n';

void initI18n().then(() => {
  const root = document.getElementById('root');
  if (root) createRoot(root).render(<App />);
});
