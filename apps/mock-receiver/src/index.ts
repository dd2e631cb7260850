// What the one-machine composer (apps/local-suite) needs to run the receiver in its process.
export * from './receiver-app';
