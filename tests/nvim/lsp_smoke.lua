-- Drives `codectx serve` from Neovim's built-in LSP client (Neovim 0.7+, headless).
-- Inputs (environment): CODECTX_BIN, CODECTX_ROOT, CODECTX_FILE (relative to the root),
-- CODECTX_LINE (1-based) and CODECTX_COL (0-based byte column) of a name to look up,
-- CODECTX_OUT (where the answers are written as JSON).
-- Exits with 0 after writing the answers, 1 on any error (also written to CODECTX_OUT).

local out_path = os.getenv("CODECTX_OUT")

local function write_out(value)
  local file = assert(io.open(out_path, "w"))
  file:write(vim.fn.json_encode(value))
  file:close()
end

local function run()
  local bin = assert(os.getenv("CODECTX_BIN"), "CODECTX_BIN")
  local root = assert(os.getenv("CODECTX_ROOT"), "CODECTX_ROOT")
  local file = root .. "/" .. assert(os.getenv("CODECTX_FILE"), "CODECTX_FILE")
  local line = tonumber(os.getenv("CODECTX_LINE"))
  local col = tonumber(os.getenv("CODECTX_COL"))

  local client_id = vim.lsp.start_client({
    name = "codectx",
    cmd = { bin, "serve" },
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = "root" } },
  })
  assert(client_id, "start_client failed")
  vim.cmd("edit " .. vim.fn.fnameescape(file))
  local bufnr = vim.api.nvim_get_current_buf()
  vim.lsp.buf_attach_client(bufnr, client_id)
  local client = vim.lsp.get_client_by_id(client_id)
  assert(vim.wait(20000, function() return client.initialized end, 20), "not initialized")

  local status = client.request_sync("workspace/executeCommand",
    { command = "codectx.status", arguments = { { wait = true } } }, 60000, bufnr)
  assert(status and status.result, "codectx.status failed: " .. vim.inspect(status))

  vim.api.nvim_win_set_cursor(0, { line, col })
  local params = vim.lsp.util.make_position_params()
  local definition = client.request_sync("textDocument/definition", params, 20000, bufnr)
  assert(definition and not definition.err, "definition failed: " .. vim.inspect(definition))

  assert(client.server_capabilities == nil or client.server_capabilities.implementationProvider,
    "no implementationProvider: " .. vim.inspect(client.server_capabilities))
  local implementation = client.request_sync("textDocument/implementation", params, 20000, bufnr)
  assert(implementation and not implementation.err,
    "implementation failed: " .. vim.inspect(implementation))

  local symbols = client.request_sync("workspace/symbol", { query = "OrderService" }, 20000, bufnr)
  assert(symbols and not symbols.err, "workspace/symbol failed: " .. vim.inspect(symbols))

  write_out({
    ok = true,
    offset_encoding = client.offset_encoding,
    status = status.result,
    definition = definition.result,
    implementation_answered = true,
    symbols = symbols.result,
  })
  client.stop()
  vim.wait(5000, function() return client.is_stopped() end, 20)
end

local ok, err = pcall(run)
if not ok then
  write_out({ ok = false, error = tostring(err) })
  vim.cmd("cquit 1")
end
vim.cmd("qall!")
