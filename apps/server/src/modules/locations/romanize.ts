/**
 * Hiragana readings to the romanisation used for Japanese place names in English (Hepburn without
 * macrons: とうきょう → Tokyo, ちゅうおう → Chuo, ほっかいどう → Hokkaido, しんじゅく → Shinjuku).
 * Used when generating the location lists from the readings of the official code table.
 */
const DIGRAPHS: Record<string, string> = {
  きゃ: 'kya',
  きゅ: 'kyu',
  きょ: 'kyo',
  しゃ: 'sha',
  しゅ: 'shu',
  しょ: 'sho',
  ちゃ: 'cha',
  ちゅ: 'chu',
  ちょ: 'cho',
  にゃ: 'nya',
  にゅ: 'nyu',
  にょ: 'nyo',
  ひゃ: 'hya',
  ひゅ: 'hyu',
  ひょ: 'hyo',
  みゃ: 'mya',
  みゅ: 'myu',
  みょ: 'myo',
  りゃ: 'rya',
  りゅ: 'ryu',
  りょ: 'ryo',
  ぎゃ: 'gya',
  ぎゅ: 'gyu',
  ぎょ: 'gyo',
  じゃ: 'ja',
  じゅ: 'ju',
  じょ: 'jo',
  ぢゃ: 'ja',
  ぢゅ: 'ju',
  ぢょ: 'jo',
  びゃ: 'bya',
  びゅ: 'byu',
  びょ: 'byo',
  ぴゃ: 'pya',
  ぴゅ: 'pyu',
  ぴょ: 'pyo',
};
const KANA: Record<string, string> = {
  あ: 'a',
  い: 'i',
  う: 'u',
  え: 'e',
  お: 'o',
  か: 'ka',
  き: 'ki',
  く: 'ku',
  け: 'ke',
  こ: 'ko',
  さ: 'sa',
  し: 'shi',
  す: 'su',
  せ: 'se',
  そ: 'so',
  た: 'ta',
  ち: 'chi',
  つ: 'tsu',
  て: 'te',
  と: 'to',
  な: 'na',
  に: 'ni',
  ぬ: 'nu',
  ね: 'ne',
  の: 'no',
  は: 'ha',
  ひ: 'hi',
  ふ: 'fu',
  へ: 'he',
  ほ: 'ho',
  ま: 'ma',
  み: 'mi',
  む: 'mu',
  め: 'me',
  も: 'mo',
  や: 'ya',
  ゆ: 'yu',
  よ: 'yo',
  ら: 'ra',
  り: 'ri',
  る: 'ru',
  れ: 're',
  ろ: 'ro',
  わ: 'wa',
  ゐ: 'i',
  ゑ: 'e',
  を: 'o',
  ん: 'n',
  が: 'ga',
  ぎ: 'gi',
  ぐ: 'gu',
  げ: 'ge',
  ご: 'go',
  ざ: 'za',
  じ: 'ji',
  ず: 'zu',
  ぜ: 'ze',
  ぞ: 'zo',
  だ: 'da',
  ぢ: 'ji',
  づ: 'zu',
  で: 'de',
  ど: 'do',
  ば: 'ba',
  び: 'bi',
  ぶ: 'bu',
  べ: 'be',
  ぼ: 'bo',
  ぱ: 'pa',
  ぴ: 'pi',
  ぷ: 'pu',
  ぺ: 'pe',
  ぽ: 'po',
  ゔ: 'vu',
  ぁ: 'a',
  ぃ: 'i',
  ぅ: 'u',
  ぇ: 'e',
  ぉ: 'o',
};

function syllables(reading: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < reading.length; i += 1) {
    const pair = reading.slice(i, i + 2);
    if (DIGRAPHS[pair]) {
      out.push(DIGRAPHS[pair]);
      i += 1;
    } else if (reading[i] === 'っ' || reading[i] === 'ー') {
      out.push(reading[i]!);
    } else {
      const romaji = KANA[reading[i]!];
      if (romaji === undefined) throw new Error(`Cannot romanise "${reading[i]}" in ${reading}`);
      out.push(romaji);
    }
  }
  return out;
}

export function romanize(reading: string): string {
  const parts = syllables(reading);
  let text = '';
  for (let i = 0; i < parts.length; i += 1) {
    const part = parts[i]!;
    if (part === 'っ') {
      // A small tsu doubles the next consonant (ch becomes tch: はっちょう → hatcho).
      const next = parts[i + 1] ?? '';
      text += next.startsWith('ch') ? 't' : (next[0] ?? '');
    } else if (part === 'ー') {
      continue;
    } else if (part === 'n' && /^[aiueoy]/.test(parts[i + 1] ?? '')) {
      // ん before a vowel or y is kept apart from it in the spelling convention (Shin'ei); in
      // place names the apostrophe is dropped, and the n alone is kept.
      text += 'n';
    } else {
      text += part;
    }
    // Long vowels lose their second letter: ou and oo become o, uu becomes u.
    const last = text.at(-1);
    const following = parts[i + 1];
    if ((last === 'o' && (following === 'u' || following === 'o')) || (last === 'u' && following === 'u')) i += 1;
  }
  return text.charAt(0).toUpperCase() + text.slice(1);
}
