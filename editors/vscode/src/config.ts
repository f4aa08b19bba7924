// The extension's settings (`codectx.*` in package.json).

import * as vscode from "vscode";

import { Format } from "./lsp_ext";
import { serverSettings, ServerSettings } from "./server";

export const SECTION = "codectx";

export class Config {
  private get cfg(): vscode.WorkspaceConfiguration {
    return vscode.workspace.getConfiguration(SECTION);
  }

  /** `codectx.server.path`, or null. */
  get serverPath(): string | null {
    return this.cfg.get<string | null>("server.path", null);
  }

  /** How the context command renders the context. */
  get contextFormat(): Format {
    return this.cfg.get<Format>("context.format", "markdown");
  }

  /** The settings the server reads (initializationOptions, didChangeConfiguration). */
  serverSettings(): ServerSettings {
    const cfg = this.cfg;
    return serverSettings((key, defaultValue) => cfg.get(key, defaultValue));
  }

  /** Whether a configuration change needs a new server process. */
  static needsRestart(event: vscode.ConfigurationChangeEvent): boolean {
    return event.affectsConfiguration(`${SECTION}.server.path`);
  }

  /** Whether a configuration change concerns the server's settings. */
  static affectsServer(event: vscode.ConfigurationChangeEvent): boolean {
    return ["exclude", "maxFileSize", "languages", "context.defaultBudget", "symbols.limit", "syntaxCache"].some((key) =>
      event.affectsConfiguration(`${SECTION}.${key}`),
    );
  }
}
