// Finding the server binary and building the server's settings from the extension's.
//
// Invariant: no `vscode` import (unit-tested with node's test runner).

import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

export type ServerSource = "setting" | "bundled" | "PATH";

export interface FoundServer {
  path: string;
  source: ServerSource;
}

export interface FindServerInput {
  /** The `codectx.server.path` setting. */
  configured?: string | null;
  /** The extension's directory; a bundled binary sits in `server/`. */
  extensionPath: string;
  /** The `PATH` environment variable. */
  envPath?: string;
  platform?: NodeJS.Platform;
  isFile?: (file: string) => boolean;
}

export interface FindServerOutput {
  found?: FoundServer;
  /** Every path looked at, for the error message. */
  tried: string[];
}

function defaultIsFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The server: the setting, else the binary bundled in the extension, else `codectx` on PATH. */
export function findServer(input: FindServerInput): FindServerOutput {
  const isFile = input.isFile ?? defaultIsFile;
  const platform = input.platform ?? process.platform;
  const exe = platform === "win32" ? "codectx.exe" : "codectx";
  const tried: string[] = [];
  const configured = input.configured?.trim();
  if (configured) {
    const file = configured.startsWith("~/") ? path.join(os.homedir(), configured.slice(2)) : configured;
    tried.push(file);
    // A setting that points nowhere is an error, not a reason to run another binary.
    return isFile(file) ? { found: { path: file, source: "setting" }, tried } : { tried };
  }
  const bundled = path.join(input.extensionPath, "server", exe);
  tried.push(bundled);
  if (isFile(bundled)) {
    return { found: { path: bundled, source: "bundled" }, tried };
  }
  const delimiter = platform === "win32" ? ";" : ":";
  for (const dir of (input.envPath ?? "").split(delimiter)) {
    if (dir === "") {
      continue;
    }
    const candidate = path.join(dir, exe);
    tried.push(candidate);
    if (isFile(candidate)) {
      return { found: { path: candidate, source: "PATH" }, tried };
    }
  }
  return { tried };
}

/** The error shown when no server is found, with the fix. */
export function notFoundMessage(configured: string | null | undefined): string {
  if (configured?.trim()) {
    return `codectx: the server binary set in codectx.server.path does not exist: ${configured}. Fix the setting, or clear it to use codectx from PATH.`;
  }
  return "codectx: the codectx server binary was not found. Build it with `cargo build --release -p codectx` and put target/release/codectx on PATH, or set codectx.server.path to its location.";
}

/** The server's settings (docs/lsp-extensions.md), as sent in initializationOptions. */
export interface ServerSettings {
  exclude: string[];
  maxFileSize: number;
  languages: string[];
  context: { defaultBudget: number };
  symbols: { limit: number };
  syntaxCache: boolean;
}

/** Reads a setting of the `codectx` section (`vscode.WorkspaceConfiguration.get`). */
export type SettingGetter = <T>(key: string, defaultValue: T) => T;

/**
 * The server's settings from the extension's: only the keys the server knows, so it logs no
 * unknown ones (`server.path`, `trace.server` and `context.format` are the client's).
 */
export function serverSettings(get: SettingGetter): ServerSettings {
  return {
    exclude: get<string[]>("exclude", []),
    maxFileSize: get<number>("maxFileSize", 1048576),
    languages: get<string[]>("languages", []),
    context: { defaultBudget: get<number>("context.defaultBudget", 8000) },
    symbols: { limit: get<number>("symbols.limit", 200) },
    syntaxCache: get<boolean>("syntaxCache", true),
  };
}
