/**
 * A small Dockerfile reader for the deployment tests (no Docker engine runs here): instructions with
 * line continuations, comments, exec (JSON) and shell forms, stages, global ARGs, and the values a
 * target stage ends up with after following its `FROM <stage>` chain.
 */

export interface Instruction {
  keyword: string;
  /** Raw argument text, continuation lines joined with a space. */
  text: string;
  /** The JSON array of the exec form, when the arguments are one. */
  exec?: string[];
  line: number;
}

export interface Stage {
  name?: string;
  /** Image or stage named by FROM, with global ARG defaults substituted. */
  from: string;
  instructions: Instruction[];
}

export interface Dockerfile {
  globalArgs: Record<string, string>;
  stages: Stage[];
}

function parseExec(text: string): string[] | undefined {
  if (!text.startsWith('[')) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) && parsed.every((item) => typeof item === 'string') ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** Splits the file into instructions (comments and blank lines inside continuations are skipped). */
export function readInstructions(source: string): Instruction[] {
  const lines = source.split(/\r?\n/);
  const instructions: Instruction[] = [];
  let pending: { parts: string[]; line: number } | undefined;
  lines.forEach((raw, index) => {
    const trimmed = raw.trim();
    if (trimmed.startsWith('#') || (trimmed === '' && pending === undefined)) return;
    if (trimmed === '') return;
    const continues = trimmed.endsWith('\\');
    const part = continues ? trimmed.slice(0, -1).trim() : trimmed;
    if (pending) pending.parts.push(part);
    else pending = { parts: [part], line: index + 1 };
    if (!continues) {
      const joined = pending.parts.filter((p) => p.length > 0).join(' ');
      const match = /^(\S+)\s*(.*)$/.exec(joined);
      if (match) {
        const text = match[2].trim();
        instructions.push({ keyword: match[1].toUpperCase(), text, exec: parseExec(text), line: pending.line });
      }
      pending = undefined;
    }
  });
  if (pending) throw new Error(`Dockerfile ends inside a continued instruction (line ${pending.line})`);
  return instructions;
}

/** Substitutes ${NAME} and $NAME from `values`; unknown names are left as they are. */
export function substitute(text: string, values: Record<string, string>): string {
  return text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (whole, braced?: string, bare?: string) => {
    const name = braced ?? bare ?? '';
    return name in values ? values[name] : whole;
  });
}

/** `NAME=value NAME2="two words"` or the legacy `NAME value` form of ENV and ARG. */
export function parseAssignments(text: string): Record<string, string> {
  const result: Record<string, string> = {};
  const legacy = /^([A-Za-z_][A-Za-z0-9_]*)(?:\s+(.*))?$/.exec(text);
  if (legacy) {
    // `ARG NAME` (no default) or the legacy `ENV NAME value`.
    result[legacy[1]] = legacy[2] ?? '';
    return result;
  }
  const pattern = /([A-Za-z_][A-Za-z0-9_]*)=("(?:[^"\\]|\\.)*"|'[^']*'|\S*)/g;
  for (const match of text.matchAll(pattern)) {
    const raw = match[2];
    result[match[1]] = raw.startsWith('"') || raw.startsWith("'") ? raw.slice(1, -1) : raw;
  }
  return result;
}

export function parseDockerfile(source: string): Dockerfile {
  const globalArgs: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const instruction of readInstructions(source)) {
    if (instruction.keyword === 'FROM') {
      const match = /^(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?$/i.exec(instruction.text);
      if (!match) throw new Error(`Cannot read FROM at line ${instruction.line}: ${instruction.text}`);
      stages.push({ from: substitute(match[1], globalArgs), name: match[2], instructions: [] });
    } else if (stages.length === 0) {
      if (instruction.keyword !== 'ARG') throw new Error(`Only ARG may come before the first FROM (line ${instruction.line})`);
      Object.assign(globalArgs, parseAssignments(instruction.text));
    } else {
      stages[stages.length - 1].instructions.push(instruction);
    }
  }
  return { globalArgs, stages };
}

export function findStage(file: Dockerfile, name: string): Stage | undefined {
  return file.stages.find((stage) => stage.name === name);
}

/** The stage and its ancestors (`FROM <stage>`), the target last. */
export function stageChain(file: Dockerfile, name: string): Stage[] {
  const chain: Stage[] = [];
  let current = findStage(file, name);
  while (current) {
    if (chain.includes(current)) throw new Error(`FROM cycle at stage ${name}`);
    chain.unshift(current);
    current = findStage(file, current.from);
  }
  return chain;
}

/** The external image a stage starts from, following stage references. */
export function baseImage(file: Dockerfile, name: string): string {
  return stageChain(file, name)[0].from;
}

export interface EffectiveImage {
  user?: string;
  entrypoint?: Instruction;
  cmd?: Instruction;
  healthcheck?: Instruction;
  env: Record<string, string>;
  exposed: string[];
  workdir?: string;
  /** Every instruction of the chain, in order. */
  instructions: Instruction[];
}

/** What the image built from `target` carries: the last USER/CMD/... of its chain, merged ENV. */
export function effectiveImage(file: Dockerfile, target: string): EffectiveImage {
  const result: EffectiveImage = { env: {}, exposed: [], instructions: [] };
  for (const stage of stageChain(file, target)) {
    for (const instruction of stage.instructions) {
      result.instructions.push(instruction);
      switch (instruction.keyword) {
        case 'USER':
          result.user = instruction.text;
          break;
        case 'ENTRYPOINT':
          result.entrypoint = instruction;
          // A new ENTRYPOINT resets an inherited CMD.
          result.cmd = undefined;
          break;
        case 'CMD':
          result.cmd = instruction;
          break;
        case 'HEALTHCHECK':
          result.healthcheck = instruction;
          break;
        case 'ENV':
          Object.assign(result.env, parseAssignments(instruction.text));
          break;
        case 'EXPOSE':
          result.exposed.push(...instruction.text.split(/\s+/).filter(Boolean));
          break;
        case 'WORKDIR':
          result.workdir = instruction.text;
          break;
      }
    }
  }
  return result;
}

/** The command part of a HEALTHCHECK instruction (after its --options and `CMD`), or 'NONE'. */
export function healthcheckCommand(instruction: Instruction): string[] | 'NONE' {
  const text = instruction.text.trim();
  if (/^NONE$/i.test(text)) return 'NONE';
  const match = /^(?:--\S+\s+)*CMD\s+(.*)$/is.exec(text);
  if (!match) throw new Error(`Cannot read HEALTHCHECK at line ${instruction.line}`);
  return parseExec(match[1].trim()) ?? ['/bin/sh', '-c', match[1].trim()];
}

/** Options of COPY/ADD (`--from=build`, `--chown=...`) and its sources and destination. */
export function parseCopy(instruction: Instruction): { options: Record<string, string>; sources: string[]; destination: string } {
  const words = instruction.exec ?? instruction.text.split(/\s+/).filter(Boolean);
  const options: Record<string, string> = {};
  const rest: string[] = [];
  for (const word of words) {
    const option = /^--([a-z-]+)(?:=(.*))?$/.exec(word);
    if (option && rest.length === 0) options[option[1]] = option[2] ?? 'true';
    else rest.push(word);
  }
  if (rest.length < 2) throw new Error(`${instruction.keyword} needs a source and a destination (line ${instruction.line})`);
  return { options, sources: rest.slice(0, -1), destination: rest[rest.length - 1] };
}

/**
 * Whether `relativePath` (from the build context root) is excluded by .dockerignore patterns
 * (`*`, `**`, `?`, `!` re-inclusion; the last matching pattern wins, as in Docker). A path is also
 * excluded when one of its parent directories is.
 */
export function isIgnored(relativePath: string, patterns: string[]): boolean {
  const rules = patterns
    .map((line) => line.trim())
    .filter((line) => line.length > 0 && !line.startsWith('#'))
    .map((line) => {
      const negated = line.startsWith('!');
      const glob = (negated ? line.slice(1) : line).replace(/^\/+/, '').replace(/\/+$/, '');
      let pattern = '';
      for (let i = 0; i < glob.length; i += 1) {
        const char = glob[i];
        if (char === '*' && glob[i + 1] === '*') {
          pattern += glob[i + 2] === '/' ? '(?:.*/)?' : '.*';
          i += glob[i + 2] === '/' ? 2 : 1;
        } else if (char === '*') pattern += '[^/]*';
        else if (char === '?') pattern += '[^/]';
        else pattern += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
      }
      return { negated, regex: new RegExp(`^${pattern}$`) };
    });
  const segments = relativePath.replace(/^\.\/+/, '').split('/');
  let ignored = false;
  // Docker matches every prefix of the path: an excluded directory excludes what is under it.
  for (let depth = 1; depth <= segments.length; depth += 1) {
    const candidate = segments.slice(0, depth).join('/');
    for (const rule of rules) if (rule.regex.test(candidate)) ignored = !rule.negated;
  }
  return ignored;
}
