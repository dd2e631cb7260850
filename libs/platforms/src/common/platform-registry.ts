import { ConfigurationError } from '@courier/config';
import { CredentialFieldDefinition, PlatformDefinition } from './platform-definition';
import { PLATFORM_DEFINITIONS } from '../platforms';

const WIRE_CODE = /^[A-Z][A-Z0-9_]{0,39}$/;

/** A platform with the code it has on the wire in this deployment. */
export interface RegisteredPlatform extends PlatformDefinition {
  wireCode: string;
}

/**
 * The platforms this deployment knows, with their wire codes (a definition's wireCodeVariable
 * renames it on the wire). Lookups by neutral code (storage, events) or wire code (HTTP).
 */
export class PlatformRegistry {
  private readonly byNeutral = new Map<string, RegisteredPlatform>();
  private readonly byWire = new Map<string, RegisteredPlatform>();

  constructor(platforms: RegisteredPlatform[]) {
    for (const platform of platforms) {
      if (this.byNeutral.has(platform.code)) throw new ConfigurationError([`platform ${platform.code} is registered twice`]);
      if (this.byWire.has(platform.wireCode)) {
        throw new ConfigurationError([`${platform.wireCodeVariable ?? platform.code}: wire code ${platform.wireCode} is already used by ${this.byWire.get(platform.wireCode)!.code}`]);
      }
      this.byNeutral.set(platform.code, platform);
      this.byWire.set(platform.wireCode, platform);
    }
  }

  /** The registry of PLATFORM_DEFINITIONS with wire codes from the environment; fails naming the variable. */
  static fromEnv(env: Record<string, string | undefined> = process.env, definitions: readonly PlatformDefinition[] = PLATFORM_DEFINITIONS): PlatformRegistry {
    const problems: string[] = [];
    const platforms = definitions.map((definition) => {
      const configured = definition.wireCodeVariable ? env[definition.wireCodeVariable]?.trim() : undefined;
      const wireCode = configured || definition.code;
      if (!WIRE_CODE.test(wireCode)) problems.push(`${definition.wireCodeVariable} must be upper-case letters, digits and "_" (at most 40), starting with a letter`);
      return { ...definition, wireCode };
    });
    if (problems.length > 0) throw new ConfigurationError(problems);
    return new PlatformRegistry(platforms);
  }

  list(): RegisteredPlatform[] {
    return [...this.byNeutral.values()];
  }

  byCode(code: string): RegisteredPlatform | undefined {
    return this.byNeutral.get(code);
  }

  byWireCode(wireCode: string): RegisteredPlatform | undefined {
    return this.byWire.get(wireCode);
  }

  /** Wire code of a neutral code (the neutral code itself for a platform no longer registered). */
  wireCodeOf(code: string): string {
    return this.byNeutral.get(code)?.wireCode ?? code;
  }

  /** Every credential field name any platform uses. */
  credentialFieldNames(): string[] {
    return [...new Set(this.list().flatMap((platform) => platform.fields.map((field) => field.name)))];
  }

  /** Names of the platforms (wire codes) that use a field. */
  platformsWithField(name: string): string[] {
    return this.list()
      .filter((platform) => platform.fields.some((field) => field.name === name))
      .map((platform) => platform.wireCode);
  }

  fieldOf(code: string, name: string): CredentialFieldDefinition | undefined {
    return this.byNeutral.get(code)?.fields.find((field) => field.name === name);
  }

  secretFieldNames(code: string): string[] {
    return (this.byNeutral.get(code)?.fields ?? []).filter((field) => field.secret).map((field) => field.name);
  }
}
