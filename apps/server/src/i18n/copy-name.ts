import en from './en.json' with { type: 'json' };
import ja from './ja.json' with { type: 'json' };

const TEMPLATES = { ja: ja.copy_name, en: en.copy_name } as const;

/**
 * The default name of a copy (a scenario, campaign or template) in the user's language:
 * 誕生日（コピー）, Birthday (copy). A long name is shortened rather than the mark, so the copy
 * still reads as one within `max` characters.
 */
export function defaultCopyName(name: string, language: keyof typeof TEMPLATES, max: number): string {
  const template = TEMPLATES[language];
  const room = max - (template.length - '{{name}}'.length);
  return template.replace('{{name}}', name.slice(0, Math.max(room, 0)));
}
