import { FORBIDDEN_CHARACTERS_MESSAGE, forbiddenCharacterIn, identityKey, normaliseText } from './identifiers';

describe('identifier and reason rule', () => {
  it.each([
    ['C0 control', 'a\u0001b', 'U+0001'],
    ['newline', 'a\nb', 'U+000A'],
    ['DEL', 'a\u007fb', 'U+007F'],
    ['C1 control', 'a\u0085b', 'U+0085'],
    ['C1 control (last)', 'a\u009fb', 'U+009F'],
    ['bidi embedding', 'a\u202ab', 'U+202A'],
    ['bidi override (RLO)', 'a\u202eb', 'U+202E'],
    ['bidi isolate', 'a\u2066b', 'U+2066'],
    ['pop directional isolate', 'a\u2069b', 'U+2069'],
    ['zero-width space', 'a\u200bb', 'U+200B'],
    ['zero-width joiner', 'a\u200db', 'U+200D'],
    ['right-to-left mark', 'a\u200fb', 'U+200F'],
    ['word joiner', 'a\u2060b', 'U+2060'],
    ['byte order mark', '\ufeffab', 'U+FEFF'],
  ])('refuses a %s', (_name, value, code) => {
    expect(forbiddenCharacterIn(value)).toBe(code);
    expect(normaliseText(value)).toEqual({ ok: false, message: `${FORBIDDEN_CHARACTERS_MESSAGE} (${code})` });
  });

  it('keeps ordinary text, accents, Turkish and other scripts', () => {
    for (const value of ['POS-1', 'Kapı açık değil', 'İSTANBUL', 'مطعم', '注文-1', 'emoji 🍕']) expect(normaliseText(value)).toEqual({ ok: true, value });
  });

  it('composes to NFC and trims surrounding white space (Unicode spaces too)', () => {
    expect(normaliseText('  Cafe\u0301 ')).toEqual({ ok: true, value: 'Café' });
    expect(normaliseText('\u00a0\u3000POS-1\u2003')).toEqual({ ok: true, value: 'POS-1' });
    expect(normaliseText('a  b')).toEqual({ ok: true, value: 'a  b' });
  });

  it('gives ids differing only by case, width or surrounding space the same identity key', () => {
    const key = identityKey('pos-1');
    for (const same of ['POS-1', ' POS-1 ', 'Pos-1', '\uff30\uff2f\uff33\uff0d\uff11', '\u3000pos-1']) expect(identityKey(same)).toBe(key);
    expect(identityKey('Café')).toBe(identityKey('CAFE\u0301'));
    expect(identityKey('pos-2')).not.toBe(key);
  });

  it('lower-cases without a locale: the dotless ı is its own letter, İ is not I', () => {
    expect(identityKey('KAPI')).toBe('kapi');
    expect(identityKey('kapı')).not.toBe(identityKey('kapi'));
    expect(identityKey('İ')).not.toBe(identityKey('I'));
  });
});
