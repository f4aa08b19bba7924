-- Starting and finding the codectx client: one client per workspace root, attached to every
-- buffer of a supported filetype under it. Uses vim.lsp.start on Neovim 0.8+ and
-- vim.lsp.start_client + vim.lsp.buf_attach_client on 0.7.

local config = require("codectx.config")

local M = {}

M.name = "codectx"

-- Client ids by root, for Neovim 0.7 (0.8+ lets vim.lsp.start reuse clients).
local clients_by_root = {}

local uv = vim.loop

local function exists(path)
  return uv.fs_stat(path) ~= nil
end

local function parent(dir)
  local up = vim.fn.fnamemodify(dir, ":h")
  if up == dir then
    return nil
  end
  return up
end

-- The workspace root of a path: the closest ancestor holding the first marker found, markers
-- tried in order; the file's directory when no marker is found.
function M.find_root(path)
  local start = vim.fn.fnamemodify(path, ":p")
  if vim.fn.isdirectory(start) == 0 then
    start = vim.fn.fnamemodify(start, ":h")
  end
  start = start:gsub("/$", "")
  if start == "" then
    start = "/"
  end
  for _, marker in ipairs(config.options.root_markers) do
    local dir = start
    while dir do
      if exists(dir .. "/" .. marker) then
        return dir
      end
      dir = parent(dir)
    end
  end
  return start
end

local function all_clients()
  if vim.lsp.get_clients then
    return vim.lsp.get_clients({ name = M.name })
  end
  local res = {}
  for _, client in pairs(vim.lsp.get_active_clients()) do
    if client.name == M.name then
      table.insert(res, client)
    end
  end
  return res
end

-- The codectx client of a buffer (the current one by default); else any running codectx
-- client; nil when none runs.
function M.get_client(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local clients = all_clients()
  for _, client in ipairs(clients) do
    if vim.lsp.buf_is_attached(bufnr, client.id) then
      return client, true
    end
  end
  return clients[1], false
end

-- Sends a request; `handler(err, result)`. Works with 0.7's client.request and 0.11's
-- client:request.
function M.request(client, method, params, handler, bufnr)
  local function on_answer(err, result)
    handler(err, result)
  end
  if vim.fn.has("nvim-0.11") == 1 then
    return client:request(method, params, on_answer, bufnr)
  end
  return client.request(method, params, on_answer, bufnr)
end

-- Synchronous request; returns result, err.
function M.request_sync(client, method, params, timeout_ms, bufnr)
  local answer, err
  if vim.fn.has("nvim-0.11") == 1 then
    answer, err = client:request_sync(method, params, timeout_ms, bufnr)
  else
    answer, err = client.request_sync(method, params, timeout_ms, bufnr)
  end
  if not answer then
    return nil, err or "no answer"
  end
  return answer.result, answer.err
end

-- Runs a codectx command (`workspace/executeCommand`); `handler(err, result)`.
function M.execute(client, command, arguments, handler, bufnr)
  return M.request(client, "workspace/executeCommand", { command = command, arguments = arguments }, handler, bufnr)
end

local function client_config(root)
  local options = config.options
  local capabilities = vim.lsp.protocol.make_client_capabilities()
  if options.capabilities then
    capabilities = vim.tbl_deep_extend("force", capabilities, options.capabilities)
  end
  return {
    name = M.name,
    cmd = config.cmd(),
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = vim.fn.fnamemodify(root, ":t") } },
    init_options = options.settings,
    settings = { codectx = options.settings },
    capabilities = capabilities,
    on_attach = options.on_attach,
  }
end

local function is_supported(bufnr)
  return vim.tbl_contains(config.options.filetypes, vim.bo[bufnr].filetype)
end

-- Starts the client for a buffer's root, or attaches the running one; returns the client id.
function M.attach(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name == "" or vim.bo[bufnr].buftype ~= "" then
    return nil
  end
  local root = M.find_root(name)
  if vim.lsp.start then
    return vim.lsp.start(client_config(root), { bufnr = bufnr })
  end
  local client_id = clients_by_root[root]
  local client = client_id and vim.lsp.get_client_by_id(client_id)
  if not client or client.is_stopped() then
    client_id = vim.lsp.start_client(client_config(root))
    if not client_id then
      return nil
    end
    clients_by_root[root] = client_id
  end
  vim.lsp.buf_attach_client(bufnr, client_id)
  return client_id
end

-- Attaches supported buffers as they are opened, and the ones already open.
function M.enable_autostart()
  local group = vim.api.nvim_create_augroup("codectx", { clear = true })
  vim.api.nvim_create_autocmd("FileType", {
    group = group,
    pattern = config.options.filetypes,
    callback = function(args)
      M.attach(args.buf)
    end,
  })
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) and is_supported(bufnr) then
      M.attach(bufnr)
    end
  end
end

-- Stops every codectx client; attached buffers are reattached by `restart`.
function M.stop()
  for _, client in ipairs(all_clients()) do
    if vim.fn.has("nvim-0.11") == 1 then
      client:stop()
    else
      client.stop()
    end
  end
  clients_by_root = {}
end

function M.restart()
  local buffers = {}
  for _, client in ipairs(all_clients()) do
    for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
      if vim.lsp.buf_is_attached(bufnr, client.id) then
        table.insert(buffers, bufnr)
      end
    end
  end
  M.stop()
  vim.defer_fn(function()
    for _, bufnr in ipairs(buffers) do
      if vim.api.nvim_buf_is_valid(bufnr) then
        M.attach(bufnr)
      end
    end
  end, 500)
end

return M
