import en from './en.json' with { type: 'json' };
import ja from './ja.json' with { type: 'json' };

const TEMPLATES = { ja: ja.copy_name, en: en.copy_name } as const;
const NUMBERED = { ja: ja.copy_name_numbered, en: en.copy_name_numbered } as const;

/**
 * The default name of a copy (a scenario, campaign, template or segment) in the user's language:
 * 誕生日（コピー）, Birthday (copy); from `n` = 2 numbered, for names that must differ: 誕生日（コピー 2）,
 * Birthday (copy 2). A long name is shortened rather than the mark, so the copy still reads as one
 * within `max` characters.
 */
export function defaultCopyName(name: string, language: keyof typeof TEMPLATES, max: number, n = 1): string {
  const template = n > 1 ? NUMBERED[language].replace('{{n}}', String(n)) : TEMPLATES[language];
  const room = max - (template.length - '{{name}}'.length);
  return template.replace('{{name}}', name.slice(0, Math.max(room, 0)));
}
