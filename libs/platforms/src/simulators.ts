export * from './common/simulator-server';
export * from './getir/getir.simulator';
export * from './yemeksepeti/yemeksepeti.simulator';
export * from './trendyol-go/trendyol-go.simulator';
export * from './migros-yemek/migros-yemek.simulator';
export * from './local-platforms';
