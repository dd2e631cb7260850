import { normaliseProductName } from './product-names';

describe('normaliseProductName', () => {
  it.each([
    ['Turkish upper case, dotted İ', 'KAŞARLI PİDE', 'kasarli pide'],
    ['as given', 'Kaşarlı Pide', 'kasarli pide'],
    ['plain Latin', 'kasarli pide', 'kasarli pide'],
    ['dotless I folds to ı, then i', 'IZGARA', 'izgara'],
    ['dotted İ folds to i', 'İSKENDER', 'iskender'],
    ['ç and Ç', 'ÇİĞ KÖFTE', 'cig kofte'],
    ['ğ and Ğ', 'DOĞAL AYRAN', 'dogal ayran'],
    ['ö and Ö', 'Özel Döner', 'ozel doner'],
    ['ş and Ş', 'ŞİŞ KEBAP', 'sis kebap'],
    ['ü and Ü', 'ÜZÜMLÜ KEK', 'uzumlu kek'],
    ['circumflex â î û', 'Kâğıt Kebabı Îmam Ûmit', 'kagit kebabi imam umit'],
    ['decomposed accents (NFD input)', 'Ku\u0308nefe', 'kunefe'],
    ['punctuation runs to one space', 'Adana-Kebap (Acılı)!!', 'adana kebap acili'],
    ['white space runs and ends', '  Adana \t  Kebap\n', 'adana kebap'],
    ['full-width forms (NFKC)', 'ＡＹＲＡＮ', 'ayran'],
    ['digits kept', '2 Adet  Lahmacun/0.5L', '2 adet lahmacun 0 5l'],
    ['only punctuation', ' - / . ', ''],
    ['empty', '', ''],
  ])('%s: %j → %j', (_case, name, key) => {
    expect(normaliseProductName(name)).toBe(key);
  });

  it('gives the demo menu\'s spellings on different platforms one key', () => {
    const spellings = ['Künefe', 'KÜNEFE', 'kunefe', 'Kunefe '];
    expect(new Set(spellings.map(normaliseProductName))).toEqual(new Set(['kunefe']));
  });

  it('keeps different products apart', () => {
    expect(normaliseProductName('Adana Kebap')).not.toBe(normaliseProductName('Urfa Kebap'));
  });
});
