/**
 * The one-machine demo restaurant's menu, served by every platform's simulator in its own shapes
 * (ids of its own, prices as that platform shows them). `codeOn` lists the platforms whose menu
 * carries the restaurant's own code for the product (an external / PLU field; Getir's and Migros'
 * menus have none, Delivery Hero carries it on order items only): the catalog links those by code and
 * proposes the others by name, as it would for a real restaurant.
 */
export interface DemoMenuProduct {
  productCode: string;
  /** The name as each platform spells it: case and diacritics differ, as they do in the field. */
  name: string;
  category: string;
  price: number;
  codeOn: ReadonlyArray<'PLATFORM_B' | 'PLATFORM_C'>;
}

export const DEMO_MENU: readonly DemoMenuProduct[] = [
  { productCode: 'ADANA-01', name: 'Adana Kebap', category: 'Kebaplar', price: 320, codeOn: ['PLATFORM_B'] },
  { productCode: 'URFA-01', name: 'Urfa Kebap', category: 'Kebaplar', price: 310, codeOn: ['PLATFORM_B'] },
  { productCode: 'LAHMACUN-01', name: 'Lahmacun', category: 'Pide ve Lahmacun', price: 90, codeOn: ['PLATFORM_B', 'PLATFORM_C'] },
  { productCode: 'PIDE-KAS-01', name: 'Kaşarlı Pide', category: 'Pide ve Lahmacun', price: 180, codeOn: ['PLATFORM_B'] },
  { productCode: 'AYRAN-01', name: 'Ayran', category: 'İçecekler', price: 35, codeOn: ['PLATFORM_B', 'PLATFORM_C'] },
  { productCode: 'KUNEFE-01', name: 'Künefe', category: 'Tatlılar', price: 150, codeOn: [] },
];

/** How a platform's menu spells a demo product's name: upper-cased the Turkish way on some, as given on others. */
export function demoNameOn(product: DemoMenuProduct, style: 'as_given' | 'turkish_upper'): string {
  return style === 'turkish_upper' ? product.name.toLocaleUpperCase('tr-TR') : product.name;
}
