-- The user commands: :CodectxContext[!] [task], :CodectxStatus, :CodectxReindex,
-- :CodectxRestart. Each talks to the codectx client of the current buffer.

local config = require("codectx.config")
local lsp = require("codectx.lsp")

local M = {}

local NOT_RUNNING = "codectx is not running: open a Python, TypeScript, JavaScript, Go or Rust file "
  .. "after require('codectx').setup(), or see :checkhealth codectx"

local function notify(message, level)
  vim.notify("codectx: " .. message, level or vim.log.levels.INFO)
end

local function describe_error(err)
  if type(err) == "table" then
    return err.message or vim.inspect(err)
  end
  return tostring(err)
end

-- The arguments of codectx.context for a task: the query, the configured format and budget,
-- and the current buffer and cursor when the client is attached to it.
function M.context_arguments(task, client, attached)
  local context = config.options.context
  local arguments = { query = task, format = context.format, budget = context.budget }
  if attached then
    arguments.activeUri = vim.uri_from_bufnr(0)
    arguments.position = vim.lsp.util.make_position_params(0, client.offset_encoding).position
  end
  return arguments
end

local FILETYPES = { markdown = "markdown", xml = "xml", json = "json" }

-- Shows context text in a scratch buffer (`codectx://context`), replacing the previous one.
function M.show(text, format)
  local name = "codectx://context"
  local existing = vim.fn.bufnr(name)
  if existing ~= -1 then
    vim.api.nvim_buf_delete(existing, { force = true })
  end
  vim.cmd("botright new")
  local bufnr = vim.api.nvim_get_current_buf()
  vim.bo[bufnr].buftype = "nofile"
  vim.bo[bufnr].bufhidden = "wipe"
  vim.bo[bufnr].swapfile = false
  vim.api.nvim_buf_set_name(bufnr, name)
  vim.api.nvim_buf_set_lines(bufnr, 0, -1, false, vim.split(text, "\n", { plain = true }))
  vim.bo[bufnr].modifiable = false
  vim.bo[bufnr].filetype = FILETYPES[format] or "markdown"
  return bufnr
end

local function default_register()
  if vim.fn.has("clipboard") == 1 then
    return "+"
  end
  return '"'
end

-- Runs codectx.context for `task`; shows the text, or yanks it when `opts.yank`.
-- `opts.on_done(err, result)` is called at the end (for tests and scripts).
function M.context(task, opts)
  opts = opts or {}
  local on_done = opts.on_done or function() end
  local client, attached = lsp.get_client()
  if not client then
    notify(NOT_RUNNING, vim.log.levels.ERROR)
    return on_done(NOT_RUNNING)
  end
  local arguments = M.context_arguments(task, client, attached)
  notify("assembling context...")
  lsp.execute(client, "codectx.context", { arguments }, function(err, result)
    if err then
      notify(describe_error(err), vim.log.levels.ERROR)
      return on_done(err)
    end
    local summary = string.format(
      "%s, %d items, %d/%d tokens",
      result.intent.kind,
      #result.items,
      result.budget.used,
      result.budget.limit
    )
    if opts.yank then
      local register = config.options.context.register or default_register()
      vim.fn.setreg(register, result.text)
      notify(string.format("context (%s) yanked to register %s", summary, register))
    else
      M.show(result.text, arguments.format)
      notify("context: " .. summary)
    end
    on_done(nil, result)
  end, vim.api.nvim_get_current_buf())
end

-- :CodectxContext[!] [task]: without a task, asks for one.
function M.context_command(args)
  local yank = args.bang
  if args.args ~= "" then
    return M.context(args.args, { yank = yank })
  end
  vim.ui.input({ prompt = "codectx: context for a task: " }, function(task)
    if task and task ~= "" then
      M.context(task, { yank = yank })
    end
  end)
end

-- A one-line description of a codectx.status answer.
function M.format_status(status)
  local text = string.format(
    "%s, %d files, %d definitions, %d references",
    status.state,
    status.files,
    status.definitions,
    status.references
  )
  if status.state == "ready" then
    text = text .. string.format(" (indexed in %d ms)", status.indexMs)
  end
  return text
end

local function status_like(command)
  local client = lsp.get_client()
  if not client then
    return notify(NOT_RUNNING, vim.log.levels.ERROR)
  end
  lsp.execute(client, command, {}, function(err, status)
    if err then
      return notify(describe_error(err), vim.log.levels.ERROR)
    end
    notify(M.format_status(status))
  end)
end

function M.status()
  status_like("codectx.status")
end

function M.reindex()
  status_like("codectx.reindex")
end

function M.restart()
  lsp.restart()
end

return M
