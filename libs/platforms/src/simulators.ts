export * from './common/simulator-server';
export * from './getir/getir.simulator';
export * from './getir/getir.catalog-routes';
export * from './yemeksepeti/yemeksepeti.simulator';
export * from './trendyol-go/trendyol-go.simulator';
export * from './trendyol-go/trendyol-go.catalog-routes';
export * from './migros-yemek/migros-yemek.simulator';
export * from './migros-yemek/migros-yemek.catalog-routes';
export * from './local-platforms';
export * from './common/demo-menu';
// A fifth platform from its own folder (tests only): the proof that a platform is one folder and one registry line.
export * from './testing/example-platform/example-platform';
export * from './testing/example-platform/example.simulator';
