import { describe, expect, it } from 'vitest';
import { ALL_TEXTS } from '../../i18n/allTexts';

/**
 * A customer's email status has one name in each language wherever it shows: the customer list
 * and detail (the source of the names), the segment filter, and the dashboard's figures.
 * Japanese: メール配信ステータス, 有効 / 配信停止. English (the specification's): Email status,
 * Active / Unsubscribed. The people are customers (顧客) throughout.
 */
describe('the email status names', () => {
  for (const language of ['ja', 'en'] as const) {
    const texts = ALL_TEXTS[language];
    it(`are the customer list's in the segment filter and on the dashboard (${language})`, () => {
      expect(texts.segmentation.fields.email_status).toBe(texts.customers.fields.email_status);
      expect(texts.segmentation.options.email_status).toEqual(texts.customers.email_status);
      expect(texts.customers.fields.email_status_changed_at).toContain(texts.customers.fields.email_status);
      expect(texts.dashboard.customers.active).toContain(texts.customers.email_status.active);
      expect(texts.dashboard.customers.unsubscribed).toContain(texts.customers.email_status.unsubscribed);
    });

    it(`call the people of the why dialog customers (${language})`, () => {
      const word = language === 'ja' ? '顧客' : 'customer';
      for (const text of [texts.segmentation.why.title, texts.segmentation.customer.ask_title]) {
        expect(text).toContain(word);
        expect(text).not.toMatch(/ゲスト|guest/);
      }
    });
  }
});
