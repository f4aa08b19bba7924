-- Configuration of codectx.nvim: the defaults, and validation of what `setup()` is given.
-- `require("codectx.config").options` holds the merged options after `setup()`.

local M = {}

M.defaults = {
  -- The command that starts the language server. `nil`: `{ server_path, "serve" }`.
  cmd = nil,
  -- The codectx binary when `cmd` is not given: a path, or a name looked up on PATH.
  server_path = "codectx",
  -- Server settings (`codectx.*`, see `:help codectx-settings`): sent as initializationOptions
  -- and answered to workspace/configuration.
  settings = {},
  -- Buffers of these filetypes start or attach the client.
  filetypes = { "python", "javascript", "javascriptreact", "typescript", "typescriptreact", "go", "rust" },
  -- The workspace root is the closest ancestor holding the first marker found, tried in order.
  root_markers = { ".git", "Cargo.toml", "go.mod", "package.json", "tsconfig.json", "pyproject.toml", "setup.py" },
  -- Start the client when a buffer of one of `filetypes` is opened.
  autostart = true,
  -- Extra client capabilities (merged into the defaults) and an on_attach(client, bufnr).
  capabilities = nil,
  on_attach = nil,
  context = {
    -- Token budget of :CodectxContext; `nil`: the server's `context.defaultBudget`.
    budget = nil,
    -- Format of the context text: "markdown", "xml" or "json".
    format = "markdown",
    -- Register that :CodectxContext! fills; `nil`: "+" when a clipboard is available, else '"'.
    register = nil,
  },
}

M.options = vim.deepcopy(M.defaults)

local function is_list_of_strings(value)
  if type(value) ~= "table" then
    return false
  end
  for _, item in ipairs(value) do
    if type(item) ~= "string" then
      return false
    end
  end
  return true
end

local function is_list_of_strings_or_nil(value)
  return value == nil or (is_list_of_strings(value) and #value > 0)
end

local FORMATS = { markdown = true, xml = true, json = true }

-- Checks merged options; returns nil, or a message naming the first bad key.
function M.validate(options)
  local ok, err = pcall(vim.validate, {
    cmd = { options.cmd, is_list_of_strings_or_nil, "list of strings" },
    server_path = { options.server_path, "string" },
    settings = { options.settings, "table" },
    filetypes = { options.filetypes, is_list_of_strings, "list of strings" },
    root_markers = { options.root_markers, is_list_of_strings, "list of strings" },
    autostart = { options.autostart, "boolean" },
    capabilities = { options.capabilities, "table", true },
    on_attach = { options.on_attach, "function", true },
    context = { options.context, "table" },
  })
  if not ok then
    return err
  end
  local context = options.context
  ok, err = pcall(vim.validate, {
    ["context.budget"] = {
      context.budget,
      function(value)
        return value == nil or (type(value) == "number" and value >= 256 and value <= 200000 and value % 1 == 0)
      end,
      "integer between 256 and 200000",
    },
    ["context.format"] = {
      context.format,
      function(value)
        return FORMATS[value] ~= nil
      end,
      '"markdown", "xml" or "json"',
    },
    ["context.register"] = { context.register, "string", true },
  })
  if not ok then
    return err
  end
  for key in pairs(options) do
    if M.defaults[key] == nil and key ~= "cmd" and key ~= "capabilities" and key ~= "on_attach" then
      return "unknown option: " .. key
    end
  end
  for key in pairs(context) do
    if M.defaults.context[key] == nil and key ~= "budget" and key ~= "register" then
      return "unknown option: context." .. key
    end
  end
  return nil
end

-- Merges `user` over the defaults and validates; raises an error naming the bad key.
function M.set(user)
  local merged = vim.tbl_deep_extend("force", vim.deepcopy(M.defaults), user or {})
  local err = M.validate(merged)
  if err then
    error("codectx.setup: " .. err, 0)
  end
  M.options = merged
  M.did_setup = true
  return merged
end

-- The server command line.
function M.cmd()
  return M.options.cmd or { M.options.server_path, "serve" }
end

return M
