-- codectx.nvim: code context for AI assistants from the codectx language server.
--
--   require("codectx").setup({ settings = { exclude = { "vendor/**" } } })
--
-- starts (or attaches) the codectx client for Python, TypeScript, TSX, JavaScript, Go and Rust
-- buffers. See :help codectx.

local M = {}

-- Merges and validates the options, then starts the client for supported buffers.
function M.setup(options)
  local config = require("codectx.config")
  config.set(options)
  local lsp = require("codectx.lsp")
  if config.options.autostart then
    lsp.enable_autostart()
  end
end

-- Runs codectx.context for `task` (see :help codectx.context()).
function M.context(task, opts)
  return require("codectx.commands").context(task, opts)
end

-- The codectx client of the current buffer, or nil.
function M.client()
  return (require("codectx.lsp").get_client())
end

return M
