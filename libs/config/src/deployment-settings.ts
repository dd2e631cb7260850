/**
 * What a deployment must provide besides the variables a config class cannot start without: settings
 * that are optional for the code (it starts, and refuses the feature) but that a production
 * deployment needs (a platform's webhook key: without it the platform's orders are refused). The
 * deployment checks (tools/deploy) read these to prove the prod overlay provides them.
 */
const REQUIRED_IN_PRODUCTION = Symbol('requiredInProduction');
const ALSO_READS = Symbol('alsoReads');

type ConfigClass = abstract new (...args: never[]) => object;
type Marked = { [REQUIRED_IN_PRODUCTION]?: string[]; [ALSO_READS]?: ConfigClass[] };

/** Marks an optional setting that a production deployment must set. */
export function RequiredInProduction(): PropertyDecorator {
  return (target, property) => {
    const owner = target.constructor as unknown as Marked;
    owner[REQUIRED_IN_PRODUCTION] = [...(Object.getOwnPropertyDescriptor(owner, REQUIRED_IN_PRODUCTION)?.value ?? []), String(property)];
  };
}

/** Names the other config classes an app validates at start (their variables are the app's too). */
export function AlsoReads(...configs: ConfigClass[]): ClassDecorator {
  return (target) => {
    (target as unknown as Marked)[ALSO_READS] = configs;
  };
}

/** The config class and every class it names with @AlsoReads. */
export function configClassesOf(config: ConfigClass): ConfigClass[] {
  return [config, ...((config as unknown as Marked)[ALSO_READS] ?? [])];
}

/** The settings marked @RequiredInProduction on the class, its parents and the classes it also reads. */
export function productionSettings(config: ConfigClass): string[] {
  const names = new Set<string>();
  for (const owner of configClassesOf(config)) {
    for (let cls: unknown = owner; typeof cls === 'function' && cls !== Function.prototype; cls = Object.getPrototypeOf(cls)) {
      for (const name of Object.getOwnPropertyDescriptor(cls, REQUIRED_IN_PRODUCTION)?.value ?? []) names.add(name);
    }
  }
  return [...names].sort();
}
