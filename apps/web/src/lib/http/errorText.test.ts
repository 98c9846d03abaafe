import { ENGLISH_NAME_LIST, ERROR_MESSAGES, ERROR_MESSAGES_MANY, nameList } from '@yado/contracts/errors';
import i18next from 'i18next';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiError } from './ApiError';
import { errorText } from './errorText';

const inUse = (...campaigns: string[]) =>
  new ApiError(409, 'template_in_use', '', undefined, { campaign: campaigns[0]!, campaigns });

describe('an error naming a list', () => {
  afterAll(() => i18next.changeLanguage('en'));

  it('names one, two, three, then three and the count of the rest, in English as the server writes it', async () => {
    await i18next.changeLanguage('en');
    expect(errorText(inUse('Winter'))).toBe(ERROR_MESSAGES.template_in_use.replace('{{campaign}}', 'Winter'));
    const lists: [string[], string][] = [
      [['A', 'B'], '"A" and "B"'],
      [['A', 'B', 'C'], '"A", "B" and "C"'],
      [['A', 'B', 'C', 'D', 'E'], '"A", "B", "C" and 2 more'],
    ];
    for (const [names, written] of lists) {
      expect(nameList(names, ENGLISH_NAME_LIST)).toBe(written);
      expect(errorText(inUse(...names))).toBe(
        `This template is used by campaigns that have not finished: ${written}. Cancel those campaigns, or wait until they have been sent, before deleting the template.`,
      );
      expect(errorText(inUse(...names))).toBe(ERROR_MESSAGES_MANY.template_in_use!.replace('{{campaigns}}', written));
    }
  });

  it('reads naturally in Japanese, one campaign as many', async () => {
    await i18next.changeLanguage('ja');
    const text = (list: string) =>
      `このテンプレートは、まだ終わっていないキャンペーン${list}で使われています。キャンペーンを取り消すか、配信が終わってから削除してください。`;
    expect(errorText(inUse('冬'))).toBe(text('「冬」'));
    expect(errorText(inUse('冬', '春'))).toBe(text('「冬」、「春」'));
    expect(errorText(inUse('冬', '春', '夏', '秋'))).toBe(text('「冬」、「春」、「夏」ほか1件'));
  });

  it('fills string params as before', async () => {
    await i18next.changeLanguage('en');
    const refused = new ApiError(400, 'test_address_refused_others_sent', '', undefined, {
      email: 'a@example.jp',
      reason: 'mailbox unknown',
      sent: '2',
      total: '3',
    });
    expect(errorText(refused)).toBe(
      'The mail server refused a@example.jp as an address: mailbox unknown. The test was sent to 2 of the 3 addresses.',
    );
  });
});
