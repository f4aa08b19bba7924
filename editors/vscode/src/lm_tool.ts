// The `codectx_context` Language Model Tool: lets chat agents in VS Code call
// codectx.context. Its input schema (package.json, contributes.languageModelTools) is the
// command's argument object.

import * as vscode from "vscode";

import { Ctx } from "./ctx";
import { ContextParams } from "./lsp_ext";

export const TOOL_NAME = "codectx_context";

export class ContextTool implements vscode.LanguageModelTool<ContextParams> {
  constructor(private readonly ctx: Ctx) {}

  prepareInvocation(
    options: vscode.LanguageModelToolInvocationPrepareOptions<ContextParams>,
  ): vscode.PreparedToolInvocation {
    return { invocationMessage: `codectx: context for "${options.input.query}"` };
  }

  async invoke(
    options: vscode.LanguageModelToolInvocationOptions<ContextParams>,
    _token: vscode.CancellationToken,
  ): Promise<vscode.LanguageModelToolResult> {
    const { query, ...rest } = options.input;
    // Models read XML best; the caller may still ask for another format.
    const result = await this.ctx.getContext(query, { format: "xml", ...rest });
    return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(result.text)]);
  }
}
