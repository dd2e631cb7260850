/**
 * The key two spellings of one product's name share, for matching a platform's product to the
 * restaurant's by name: Turkish case folding first (İ → i, I → ı, whatever the runtime's locale
 * data), then the Turkish letters and any other accent to their plain Latin letter
 * (ç c, ğ g, ı i, ö o, ş s, ü u, â a, î i, û u), and every run of spaces and punctuation to one
 * space. "KAŞARLI PİDE", "Kaşarlı  Pide" and "kasarli-pide" share the key "kasarli pide".
 */
export function normaliseProductName(name: string): string {
  const folded = name.normalize('NFKC').replace(/İ/g, 'i').replace(/I/g, 'ı').toLocaleLowerCase('tr-TR');
  const plain = folded.replace(/ı/g, 'i').normalize('NFD').replace(/\p{M}+/gu, '');
  return plain.replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}
