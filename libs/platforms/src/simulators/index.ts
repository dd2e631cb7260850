export * from './common/simulator-server';
export * from './platform-a/platform-a.simulator';
export * from './platform-b/platform-b.simulator';
export * from './platform-c/platform-c.simulator';
export * from './platform-d/platform-d.simulator';
export * from './local-platforms';
