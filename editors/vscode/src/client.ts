// Creating the language client that runs `codectx serve` over stdio.

import * as vscode from "vscode";
import * as lc from "vscode-languageclient/node";

import { LANGUAGE_IDS } from "./context";
import { Config, SECTION } from "./config";

export function createClient(serverPath: string, config: Config, outputChannel: vscode.OutputChannel): lc.LanguageClient {
  const executable: lc.Executable = {
    command: serverPath,
    args: ["serve"],
    options: { env: { ...process.env } },
  };
  const serverOptions: lc.ServerOptions = { run: executable, debug: executable };
  const clientOptions: lc.LanguageClientOptions = {
    documentSelector: LANGUAGE_IDS.map((language) => ({ scheme: "file", language })),
    initializationOptions: config.serverSettings(),
    outputChannel,
    traceOutputChannel: outputChannel,
    middleware: {
      workspace: {
        // Answer workspace/configuration with the keys the server knows.
        configuration: (params, token, next) => {
          if (params.items.every((item) => item.section === SECTION)) {
            return params.items.map(() => config.serverSettings());
          }
          return next(params, token);
        },
      },
    },
  };
  return new lc.LanguageClient("codectx", "codectx", serverOptions, clientOptions);
}
